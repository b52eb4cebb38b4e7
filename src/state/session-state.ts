/**
 * The per-session state `supervisor-<session_id>.json` (docs/design/files.md): how many reviews ran,
 * the limit, whether supervision is on, the last verdict. Several hooks of one session can run
 * at once (a reviewer's own stop, a second terminal): every change happens under an
 * inter-process lock and is written atomically, so no count is ever lost.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import type { CheckerLogger } from '../log/checker-logger.js';
import { defaultConfig } from '../config/defaults.js';
import { CccError, errorText } from '../errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { isSurvivableWriteError, showWarning, warnWriteFailed } from './write-failure.js';
import { cccDir, sessionStateFileName, sessionStatePath } from './paths.js';
import { parseSessionState, type SessionState } from './session-state-shape.js';

export type { SessionState, SessionVerdict } from './session-state-shape.js';

export interface SessionStateOptions {
  /** Where corrupt files and lock trouble are reported. */
  logger?: CheckerLogger;
  /** `max_iterations` of a state created fresh (default: the built-in default). */
  maxIterations?: number;
  now?: () => Date;
  /**
   * For a one-shot command (`ccc supervisor-mode off`): a disk that refuses the write is an error, not
   * a state kept in memory for a session this process does not run.
   */
  saveOrFail?: boolean;
}

function freshSessionState(sessionId: string, options: SessionStateOptions = {}): SessionState {
  const at = (options.now ?? (() => new Date()))().toISOString();
  return {
    session_id: sessionId,
    iteration: 0,
    max_iterations: options.maxIterations ?? defaultConfig().supervisor.max_iterations,
    enabled: true,
    prompt_count: 0,
    created_at: at,
    updated_at: at,
  };
}

/** The stored state, or undefined when there is none (or it is corrupt: logged, left in place). */
export async function readSessionState(configDir: string, sessionId: string, options: SessionStateOptions = {}): Promise<SessionState | undefined> {
  const file = sessionStatePath(configDir, sessionId);
  const text = await readIfExists(file);
  if (text === undefined) return undefined;
  const state = parseSessionState(text, sessionId);
  if (state === undefined) options.logger?.warn('session state file is corrupt; treating it as absent', { file });
  return state;
}

/**
 * Reads the state (fresh if absent), applies `update`, writes the result, all while holding the
 * session's lock. Keep `update` short: other hooks of the session wait for it. `session_id`,
 * `created_at` and `updated_at` are maintained here, whatever `update` returns.
 *
 * When the disk fails it (full, read-only, the directory gone), the state of that session lives in
 * this process's memory from then on, under an in-process lock: the reviews go on counting from
 * the last state the disk held, the file keeps that content, and one WARN says so
 * (write-failure.ts). A corrupt file is moved aside and counting goes on from the last state this
 * process knew (fresh when it knew none), with a visible warning.
 */
export async function updateSessionState(
  configDir: string,
  sessionId: string,
  update: (current: SessionState) => SessionState | Promise<SessionState>,
  options: SessionStateOptions = {},
): Promise<SessionState> {
  const file = path.join(configDir, 'ccc', sessionStateFileName(sessionId));
  if (!inMemory.has(file)) {
    const onDisk = await updateOnDisk(file, sessionId, update, options);
    if ('state' in onDisk) return onDisk.state;
    if (options.saveOrFail) {
      throw new CccError('CONFIG_DIR_UNUSABLE', `Cannot save the session state ${file}: ${errorText(onDisk.failed)}.`, {
        cause: onDisk.failed,
        data: { file },
      });
    }
    await moveToMemory(file, sessionId, onDisk.failed);
  }
  return inMemoryLock(file, async () => {
    const current = structuredClone(lastKnown.get(file) ?? freshSessionState(sessionId, options));
    const next = applyUpdate(sessionId, current, await update(structuredClone(current)), options);
    lastKnown.set(file, next);
    return next;
  });
}

/** The newest state of each session this process read or wrote: where counting goes on when the file cannot serve. */
const lastKnown = new Map<string, SessionState>();
/** Sessions whose file the disk refused: counted in memory to the end of the process. */
const inMemory = new Set<string>();
const memoryLocks = new Map<string, Promise<unknown>>();

/** One update at a time per file, in this process (the disk cannot hold a lock any more). */
function inMemoryLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const run = (memoryLocks.get(file) ?? Promise.resolve()).then(work, work);
  memoryLocks.set(
    file,
    run.catch(() => {}),
  );
  return run;
}

/** The update under the file lock, or the disk's error that stopped it (the file keeps its last good content). */
async function updateOnDisk(
  file: string,
  sessionId: string,
  update: (current: SessionState) => SessionState | Promise<SessionState>,
  options: SessionStateOptions,
): Promise<{ state: SessionState } | { failed: unknown }> {
  let release: () => Promise<void>;
  try {
    cccDir(path.dirname(path.dirname(file))); // made as paths.ts makes it; a disk that cannot is survived below
    release = await acquire(file, options.logger);
  } catch (error) {
    if (!isSurvivableWriteError(error)) throw error;
    return { failed: error };
  }
  try {
    let current: SessionState;
    try {
      current = await readForUpdate(file, sessionId, options);
    } catch (error) {
      if (!isSurvivableWriteError(error)) throw error;
      return { failed: error };
    }
    const next = applyUpdate(sessionId, current, await update(structuredClone(current)), options);
    try {
      await writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n');
    } catch (error) {
      if (!isSurvivableWriteError(error)) throw error;
      return { failed: error }; // the write is atomic: the file keeps its last good content
    }
    lastKnown.set(file, next);
    return { state: next };
  } finally {
    await release().catch(() => {});
  }
}

/** From now on the session is counted in memory, from the last state this process knew, else the one the disk holds. */
async function moveToMemory(file: string, sessionId: string, error: unknown): Promise<void> {
  warnWriteFailed(file, error);
  inMemory.add(file);
  if (!lastKnown.has(file)) {
    const stored = await readIfExists(file).catch(() => undefined);
    const state = stored === undefined ? undefined : parseSessionState(stored, sessionId);
    if (state) lastKnown.set(file, state);
  }
}

async function readForUpdate(file: string, sessionId: string, options: SessionStateOptions): Promise<SessionState> {
  const text = await readIfExists(file);
  if (text === undefined) return lastKnown.get(file) ?? freshSessionState(sessionId, options);
  const state = parseSessionState(text, sessionId);
  if (state !== undefined) return state;
  // Keep the evidence, go on: a broken file must not wedge the user's session, nor restart its count.
  const aside = `${file}.corrupt-${Date.now()}`;
  await fs.rename(file, aside);
  const known = lastKnown.get(file);
  const goesOn = known ? `counting goes on from review ${known.iteration}` : 'started fresh';
  options.logger?.warn(`session state file was corrupt; moved aside and ${goesOn}`, { file, moved_to: aside });
  showWarning(`ccc: WARN: the session state ${file} was corrupt; it was moved to ${aside} and ${goesOn}.\n`);
  return known ?? freshSessionState(sessionId, options);
}

/** Waits for a lock another process holds (up to past its staleness); any other failure (the disk's) is thrown at once. */
async function acquire(file: string, logger: CheckerLogger | undefined): Promise<() => Promise<void>> {
  let wait = LOCK_RETRY.minMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await lock(file, {
        realpath: false, // the state file may not exist yet
        stale: LOCK_STALE_MS, // a holder that died is taken over after this long…
        onCompromised: (error) => logger?.error('session state lock was lost while held', { file, error }),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error; // ENOSPC, EROFS, ENOENT…: the caller decides
      if (attempt >= LOCK_RETRY.attempts) {
        throw new CccError('INTERNAL', `Could not lock ${file}: ${errorText(error)}. If no other ccc is running, delete ${file}.lock.`, {
          cause: error,
          data: { file },
        });
      }
      await sleep(wait * (1 + Math.random()));
      wait = Math.min(LOCK_RETRY.maxMs, wait * LOCK_RETRY.factor);
    }
  }
}

const LOCK_STALE_MS = 10_000;
/** …which these retries outlast (about 25 s in all). */
const LOCK_RETRY = { attempts: 60, factor: 1.3, minMs: 10, maxMs: 500 };

function applyUpdate(sessionId: string, current: SessionState, proposed: SessionState, options: SessionStateOptions): SessionState {
  const next: SessionState = {
    ...proposed,
    session_id: sessionId,
    created_at: current.created_at,
    updated_at: (options.now ?? (() => new Date()))().toISOString(),
  };
  if (parseSessionState(JSON.stringify(next), sessionId) === undefined) {
    throw new CccError('INTERNAL', `Refusing to write an invalid session state for ${sessionId}: ${JSON.stringify(next)}`);
  }
  return next;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
