/**
 * The child-process edge. Every child ccc starts (the reviewer `claude -p`, hook and rule
 * commands) goes through a ChildRunner, so checkers can be unit-tested with the fake beside this
 * file and the real one guarantees these cleanup rules (docs/design/architecture.md, "Data flow"):
 * - arguments are an array, never a shell string (except `shell: true`, for the commands a user
 *   wrote into a rule checker on purpose);
 * - the child leads its own process group (`detached`), so a timeout or an abort kills the WHOLE
 *   tree (SIGTERM to the group, SIGKILL after a grace period), and whatever the child left
 *   running in its group when it exits is cleaned up too, so no orphan holds its pipes open;
 * - output is bounded: the stderr tail (8 KB) and, without `onStdout`, the stdout tail.
 * - nothing outlives ccc: the child runs under the lifeline launcher (`lifeline.ts`), which kills
 *   the group as soon as ccc dies, however it dies (the exit hook below misses SIGKILL). Without
 *   the built launcher (no C compiler at install) only the exit hook remains.
 * A process that moves itself into another group (setsid) escapes; nothing portable catches that.
 * POSIX only: Windows has no process groups to signal (it would need `taskkill /T`), not handled yet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { execError, findLifeline, lifelineArgs } from './lifeline.js';
import { createOutputTail } from './output-tail.js';
import { errorText } from '../errors.js';
import { showWarning } from '../state/write-failure.js';
import { isOutOfDescriptors, openFileLimit } from './open-file-limit.js';

export interface RunOptions {
  command: string;
  /** Passed as an array: no shell parsing, no injection. */
  args: string[];
  cwd?: string;
  /** The whole environment of the child (default: ccc's own). */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (an empty stdin when absent: `claude -p` must not wait). */
  stdin?: string;
  /** Aborting kills the process tree; the result then has `aborted: true`. */
  signal?: AbortSignal;
  /**
   * Aborting SIGKILLs the process tree at once, with no grace: for a child that must not take one
   * more step (claude given SIGTERM still sends the request it was about to). The result then has
   * `aborted: true`.
   */
  halt?: AbortSignal;
  /** Kills the process tree after this long; the result then has `timedOut: true`. */
  timeoutMs?: number;
  /** Receives stdout as it arrives; when given, the result carries no `stdout`. */
  onStdout?: (chunk: Buffer) => void;
  /** Run `command` through the shell (user-written rule commands only). */
  shell?: boolean;
  /** Between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Stdout bytes kept when there is no `onStdout` (the last ones; default 1 MiB). */
  maxStdoutBytes?: number;
  /**
   * Called once the child exists, with its pid (= its process group id). For callers that must
   * find the child again after a crash of ccc itself (`ccc kanban` records it in its lock file).
   * What it throws is said once per process (on stderr, or held while a TUI owns it); the child runs on.
   */
  onSpawn?: (pid: number) => void;
}

export interface RunResult {
  /** Null when the child was killed by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  /** The tail of stdout, when no `onStdout` took it. */
  stdout?: string;
  stdoutTruncated?: boolean;
  /** The last 8 KB of stderr. */
  stderrTail: string;
  timedOut: boolean;
  aborted: boolean;
  /** The child could not be started: code ENOENT (command not found), CWD_MISSING, EACCES… */
  spawnError?: Error;
  /** The child's pid, which is also its process group id. */
  pid?: number;
  durationMs: number;
}

export interface ChildRunner {
  /** Runs one child to completion. Never rejects: failures are in the result. */
  run(options: RunOptions): Promise<RunResult>;
}

const STDERR_TAIL_BYTES = 8 * 1024;
/** Read now: when a spawn runs out of descriptors, none is left to read it with. */
const FILE_LIMIT = openFileLimit();
const DEFAULT_STDOUT_BYTES = 1024 * 1024;
const DEFAULT_KILL_GRACE_MS = 2000;

export const childRunner: ChildRunner = { run: runChild };

export function runChild(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const collectStdout = !options.onStdout;
  const base = { exitCode: null, signal: null, stderrTail: '', timedOut: false, aborted: false, ...(collectStdout ? { stdout: '' } : {}) };
  if (options.signal?.aborted || options.halt?.aborted) return Promise.resolve({ ...base, aborted: true, durationMs: 0 });
  const lifeline = findLifeline();
  let child: ChildProcess;
  try {
    child = spawn(lifeline ?? options.command, lifeline ? lifelineArgs(options.command, options.args, options.shell ?? false) : options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: lifeline ? false : (options.shell ?? false),
      detached: true,
      // fd 3 is the lifeline: ccc holds its other end until ccc dies.
      stdio: ['pipe', 'pipe', 'pipe', ...(lifeline ? (['pipe'] as const) : [])],
    });
  } catch (error) {
    return Promise.resolve({ ...base, spawnError: explainSpawnError(error as Error, options), durationMs: Date.now() - started });
  }
  const result = supervise(child, options, started);
  try {
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
  } catch (error) {
    // A failing observer must not leave the child unsupervised: the child runs on, and the failure is said once.
    warnOnSpawnFailed(options.command, error);
  }
  return result;
}

function supervise(child: ChildProcess, options: RunOptions, started: number): Promise<RunResult> {
  const stderr = createOutputTail(STDERR_TAIL_BYTES);
  const stdout = options.onStdout ? undefined : createOutputTail(options.maxStdoutBytes ?? DEFAULT_STDOUT_BYTES);
  const group = child.pid === undefined ? undefined : trackGroup(child.pid, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  let timedOut = false;
  let aborted = false;
  let spawnError: Error | undefined;
  // First: a spawn that failed for want of descriptors or processes (EMFILE, ENFILE, EAGAIN) is an
  // 'error' on the next tick, with no pipes at all; unheard, it would end ccc.
  child.once('error', (error) => {
    spawnError = explainSpawnError(error, options);
  });

  child.stdout?.on('data', (chunk: Buffer) => (options.onStdout ? options.onStdout(chunk) : stdout!.push(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin?.on('error', () => {}); // EPIPE when the child does not read its stdin: not our concern.
  child.stdin?.end(options.stdin ?? '');
  const report: Buffer[] = [];
  child.stdio?.[3]?.on('data', (chunk: Buffer) => report.push(chunk)); // the launcher's exec error, if any
  child.stdio?.[3]?.on('error', () => {}); // the launcher's end went away: its exit is reported by 'close'

  const onAbort = () => {
    aborted = true;
    group?.kill();
  };
  const onHalt = () => {
    aborted = true;
    group?.killNow();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  options.halt?.addEventListener('abort', onHalt, { once: true });
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          group?.kill();
        }, options.timeoutMs);
  // The leader is gone: anything left in its group is an orphan that would hold our pipes open.
  child.once('exit', () => group?.kill());

  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      spawnError ??= execError(Buffer.concat(report), options.command);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      options.halt?.removeEventListener('abort', onHalt);
      resolve({
        exitCode: spawnError ? null : code,
        signal,
        ...(stdout ? { stdout: stdout.text(), stdoutTruncated: stdout.truncated } : {}),
        stderrTail: stderr.text(),
        timedOut,
        aborted,
        ...(spawnError ? { spawnError } : {}),
        ...(child.pid === undefined ? {} : { pid: child.pid }),
        durationMs: Date.now() - started,
      });
    });
  });
}

/**
 * Node reports a missing `cwd` as `spawn <command> ENOENT`, which reads like "command not
 * found"; say what is really missing, with a code of its own so callers do not misreport it. A
 * spawn without descriptors left (EMFILE, ENFILE) says so, with the limit.
 */
function explainSpawnError(error: Error, options: RunOptions): Error {
  if (isOutOfDescriptors(error)) {
    const now = FILE_LIMIT === undefined ? '' : ` (ulimit -n is ${FILE_LIMIT})`;
    return Object.assign(new Error(`Cannot start ${options.command}: ccc has no file descriptors left${now}; raise the open-file limit`, { cause: error }), {
      code: (error as NodeJS.ErrnoException).code,
    });
  }
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || options.cwd === undefined || fs.existsSync(options.cwd)) return error;
  return Object.assign(new Error(`Cannot start ${options.command}: the working directory ${options.cwd} does not exist`, { cause: error }), {
    code: 'CWD_MISSING',
  });
}

/** Process groups still to be cleaned up if ccc itself exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** `kill`: SIGTERM now, SIGKILL after the grace period, for as long as the group has members; `killNow`: SIGKILL now. */
function trackGroup(pgid: number, graceMs: number): { kill(): void; killNow(): void } {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => liveGroups.forEach((id) => signalGroup(id, 'SIGKILL')));
  }
  liveGroups.add(pgid);
  let killing = false;
  return {
    kill() {
      if (killing) return;
      killing = true;
      if (!signalGroup(pgid, 'SIGTERM')) return void liveGroups.delete(pgid);
      const timer = setTimeout(() => {
        signalGroup(pgid, 'SIGKILL');
        liveGroups.delete(pgid);
      }, graceMs);
      timer.unref(); // the exit hook covers the case where ccc exits before it fires
    },
    killNow() {
      killing = true;
      signalGroup(pgid, 'SIGKILL');
      liveGroups.delete(pgid);
    },
  };
}

/** False when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

let onSpawnWarned = false;
function warnOnSpawnFailed(command: string, error: unknown): void {
  if (onSpawnWarned) return;
  onSpawnWarned = true;
  showWarning(
    `ccc: WARN: after starting ${command}, recording its process failed (${errorText(error)}); it runs on, but a crash of ccc may leave it running.\n`,
  );
}
