/**
 * Runs one of the user's own commands (a rule checker's `commands`, a test gate's test command)
 * through the shell, on purpose: the user wrote it for a shell. stdout and stderr are merged in
 * the order the command wrote them, because the feedback shows the agent the end of the output
 * as a terminal would have. The whole process tree dies at the timeout or on abort.
 */
import { childRunner, type ChildRunner } from '../process/child-process.js';

export interface ShellCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The child-process edge (a fake in unit tests). */
  runner?: ChildRunner;
}

export interface ShellCommandResult {
  /** Null when the command was killed by a signal (timeout, abort) or could not start. */
  exitCode: number | null;
  signal: string | null;
  /** The end of stdout and stderr, merged (at most the last 64 KB). */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  /** The shell could not start at all (a missing working directory, for instance). */
  spawnError?: Error;
  durationMs: number;
}

const OUTPUT_BYTES = 64 * 1024;

export async function runShellCommand(command: string, options: ShellCommandOptions): Promise<ShellCommandResult> {
  const runner = options.runner ?? childRunner;
  const result = await runner.run({
    // `exec 2>&1` on a line of its own merges the streams without touching how the user's
    // command line itself parses (a trailing comment or `&&` chain stays what it was).
    command: `exec 2>&1\n${command}`,
    args: [],
    shell: true,
    cwd: options.cwd,
    env: options.env,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxStdoutBytes: OUTPUT_BYTES,
  });
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    // stderr is normally empty here; anything that got there (the shell's own complaints) still shows.
    output: [result.stdout ?? '', result.stderrTail].filter((part) => part !== '').join('\n'),
    timedOut: result.timedOut,
    aborted: result.aborted,
    ...(result.spawnError ? { spawnError: result.spawnError } : {}),
    durationMs: result.durationMs,
  };
}

/** The last `count` lines of `text`, without trailing blank lines; very long lines are cut. */
export function tailLines(text: string, count = 40, maxLineLength = 400): string {
  const lines = text.replace(/\s+$/, '').split(/\r?\n/);
  return lines
    .slice(-count)
    .map((line) => (line.length > maxLineLength ? `${line.slice(0, maxLineLength)}…` : line))
    .join('\n');
}

/**
 * A time limit for one child inside a checker's own budget: a little shorter than what remains,
 * so the checker can still report "the command timed out" before the pipeline's deadline fires.
 */
export function childTimeoutMs(budgetSeconds: number, startedAt: number, now = Date.now()): number {
  const budget = budgetSeconds * 1000;
  const margin = Math.min(3000, budget * 0.25);
  return Math.max(100, budget - margin - (now - startedAt));
}
