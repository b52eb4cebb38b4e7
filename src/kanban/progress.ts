/**
 * Progress on stderr (task, role, retry, elapsed): a line when an agent starts, a
 * line when it ends, and a "still running" line every minute in between so a long task never
 * looks hung. Nothing here goes to stdout.
 */
interface AgentProgress {
  label: string;
  role: string;
  /** 0 for the first run, n for the n-th retry: numbered as SUPERVISOR_LOG.md's `Attempt: n/max`. */
  retry: number;
  maxRetries: number;
}

export interface Progress {
  /** Prints the start line and starts the heartbeat; `stop` ends the heartbeat. */
  started(agent: AgentProgress): { stop(): void };
  finished(agent: AgentProgress, elapsedMs: number, outcome: string): void;
  note(message: string): void;
}

export interface StderrProgressOptions {
  write: (text: string) => void;
  heartbeatMs?: number;
  now?: () => number;
}

export function stderrProgress(options: StderrProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const heartbeatMs = options.heartbeatMs ?? 60_000;
  const line = (text: string) => options.write(`ccc kanban: ${text}\n`);
  const head = (a: AgentProgress) => `${a.label} · ${a.role}${a.retry > 0 ? ` · retry ${a.retry}/${a.maxRetries}` : ''}`;
  return {
    started(agent) {
      const since = now();
      line(`${head(agent)} …`);
      const timer = setInterval(() => line(`${head(agent)} · still running (${formatElapsed(now() - since)})`), heartbeatMs);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },
    finished(agent, elapsedMs, outcome) {
      line(`${head(agent)} · ${outcome} (${formatElapsed(elapsedMs)})`);
    },
    note: line,
  };
}

/** `850ms`, `12.3s`, `4m05s`, `1h02m`. */
function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

/** The first line of a message, cut to fit a progress line. */
export function firstLine(text: string, max = 160): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
