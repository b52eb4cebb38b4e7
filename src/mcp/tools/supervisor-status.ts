/**
 * `supervisor_status`: the running supervised sessions (from their files, docs/design/files.md). A session is
 * `<configDir>/ccc/sessions/<pid>.json` (sessions/running-session.ts) whose pid is still alive (a file
 * left behind by a killed `ccc` is skipped, not reported as running); once its session id is
 * known, its progress is `supervisor-<session_id>.json` (state/session-state-shape.ts) and the
 * last lines of `supervisor-<session_id>.log` show what it did last. Files that cannot be read
 * are listed under `problems` rather than failing the whole answer.
 */
import { shownVerdict } from '../../checkers/verdict-text.js';
import { inertLine } from '../../pty/inert-text.js';
import type { SessionVerdict } from '../../state/session-state.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isValidSessionId, sessionLogPath, sessionStatePath } from '../../state/paths.js';
import { parseSessionState } from '../../state/session-state-shape.js';
import { isProcessAlive } from '../../process/process-alive.js';

export interface SupervisedSession {
  pid: number;
  /** Absent until the session's first hook call has told ccc its id. */
  sessionId?: string;
  cwd: string;
  command: unknown;
  startedAt: string;
  observerUrl?: string;
  iteration?: number;
  maxIterations?: number;
  enabled?: boolean;
  promptCount?: number;
  updatedAt?: string;
  lastVerdict?: SessionVerdict;
  logFile?: string;
  logTail?: string[];
}

export interface SupervisorStatusResult {
  sessions: SupervisedSession[];
  problems: Array<{ file: string; error: string }>;
  summary: string;
}

const sessionFile = z.object({
  pid: z.number().int().positive(),
  session_id: z.string().refine(isValidSessionId, 'a session id of letters, digits, "_" or "-"').optional(),
  cwd: z.string(),
  observer_url: z.string().optional(),
  started_at: z.string(),
  command: z.unknown(),
});

const LOG_TAIL_LINES = 5;
const LOG_TAIL_BYTES = 8192;

export async function readSupervisorStatus(options: { configDir: string; isAlive?: (pid: number) => boolean }): Promise<SupervisorStatusResult> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const sessionsDir = path.join(options.configDir, 'ccc', 'sessions');
  const names = await fs.readdir(sessionsDir).catch(() => [] as string[]);
  const sessions: SupervisedSession[] = [];
  const problems: SupervisorStatusResult['problems'] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(sessionsDir, name);
    const parsed = sessionFile.safeParse(await readJson(file).catch((error: Error) => ({ unreadable: error.message })));
    if (!parsed.success) {
      problems.push({ file, error: parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ') });
      continue;
    }
    const s = parsed.data;
    if (!isAlive(s.pid)) continue;
    const session: SupervisedSession = {
      pid: s.pid,
      sessionId: s.session_id,
      cwd: s.cwd,
      command: s.command,
      startedAt: s.started_at,
      observerUrl: s.observer_url,
    };
    if (s.session_id !== undefined) {
      await addState(session, s.session_id, sessionStatePath(options.configDir, s.session_id), problems);
      await addLogTail(session, sessionLogPath(options.configDir, s.session_id));
    }
    sessions.push(session);
  }
  return { sessions, problems, summary: summarize(sessions) };
}

async function addState(session: SupervisedSession, sessionId: string, file: string, problems: SupervisorStatusResult['problems']) {
  const content = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
  if (content === undefined) return; // no review has been recorded yet
  const state = typeof content === 'string' ? parseSessionState(content, sessionId) : undefined;
  if (!state) {
    problems.push({ file, error: content instanceof Error ? content.message : 'not a session state file of this session (corrupt or wrong shape)' });
    return;
  }
  Object.assign(session, {
    iteration: state.iteration,
    maxIterations: state.max_iterations,
    enabled: state.enabled,
    promptCount: state.prompt_count,
    updatedAt: state.updated_at,
    lastVerdict: state.last_verdict,
  });
}

async function addLogTail(session: SupervisedSession, file: string) {
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    session.logFile = file;
    session.logTail = lines.slice(-LOG_TAIL_LINES);
  } finally {
    await handle.close();
  }
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
}

function summarize(sessions: SupervisedSession[]): string {
  if (sessions.length === 0) return 'No supervised session is running.';
  return sessions
    .map((s) => {
      const progress = s.iteration === undefined ? 'no review yet' : `iteration ${s.iteration}/${s.maxIterations}`;
      const verdict = s.lastVerdict ? `, last verdict by ${s.lastVerdict.checker}: ${verdictText(s.lastVerdict)}` : '';
      return `session ${s.sessionId ?? '(id not known yet)'} (pid ${s.pid}, ${s.cwd}): ${progress}${verdict}`;
    })
    .join('\n');
}

/** `⚠ completed (unverified)`, `✗ not completed (failed: npm test (exit 1))`: the sign and words every report gives a verdict. */
function verdictText(v: SessionVerdict): string {
  const shown = shownVerdict(v.completed, v.evidence);
  return `${shown.sign} ${v.completed ? 'completed' : 'not completed'}${shown.details ? ` (${inertLine(shown.details)})` : ''}`;
}
