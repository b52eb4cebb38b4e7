/**
 * The per-session state `supervisor-<session_id>.json` (design section 5): how many reviews ran,
 * the limit, whether supervision is on, the last verdict. Several hooks of one session can run
 * at once (a reviewer's own stop, a second terminal): every change happens under an
 * inter-process lock and is written atomically, so no count is ever lost.
 */
import fs from 'node:fs/promises';
import { lock } from 'proper-lockfile';
import type { CheckerLogger } from '../checkers/types.js';
import { defaultConfig } from '../config/defaults.js';
import { CccError } from '../errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { isSurvivableWriteError, warnWriteFailed } from './write-failure.js';
import { sessionStatePath } from './paths.js';
import { parseSessionState, type SessionState } from './session-state-shape.js';

export type { SessionState, SessionVerdict } from './session-state-shape.js';

export interface SessionStateOptions {
  /** Where corrupt files and lock trouble are reported. */
  logger?: CheckerLogger;
  /** `max_iterations` of a state created fresh (default: the built-in default). */
  maxIterations?: number;
  now?: () => Date;
}

export function freshSessionState(sessionId: string, options: SessionStateOptions = {}): SessionState {
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
 * Reads the state (fresh if absent or corrupt), applies `update`, writes the result, all while
 * holding the session's lock. Keep `update` short: other hooks of the session wait for it.
 * `session_id`, `created_at` and `updated_at` are maintained here, whatever `update` returns.
 */
export async function updateSessionState(
  configDir: string,
  sessionId: string,
  update: (current: SessionState) => SessionState | Promise<SessionState>,
  options: SessionStateOptions = {},
): Promise<SessionState> {
  const file = sessionStatePath(configDir, sessionId);
  const release = await acquire(file, options.logger);
  try {
    const current = await readForUpdate(file, sessionId, options);
    const proposed = await update(structuredClone(current));
    const next: SessionState = {
      ...proposed,
      session_id: sessionId,
      created_at: current.created_at,
      updated_at: (options.now ?? (() => new Date()))().toISOString(),
    };
    if (parseSessionState(JSON.stringify(next), sessionId) === undefined) {
      throw new CccError('INTERNAL', `Refusing to write an invalid session state for ${sessionId}: ${JSON.stringify(next)}`);
    }
    await saveOrKeep(file, next);
    return next;
  } finally {
    await release().catch(() => {});
  }
}

/** States this process could not save (disk full): newer than the file, so the next update starts from them. */
const unsaved = new Map<string, SessionState>();

async function saveOrKeep(file: string, next: SessionState): Promise<void> {
  try {
    await writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n');
    unsaved.delete(file);
  } catch (error) {
    if (!isSurvivableWriteError(error)) throw error;
    unsaved.set(file, next); // the file keeps its last good content; counting goes on in memory
    warnWriteFailed(file, error);
  }
}

async function readForUpdate(file: string, sessionId: string, options: SessionStateOptions): Promise<SessionState> {
  const kept = unsaved.get(file);
  if (kept) return structuredClone(kept);
  const text = await readIfExists(file);
  if (text === undefined) return freshSessionState(sessionId, options);
  const state = parseSessionState(text, sessionId);
  if (state !== undefined) return state;
  // Keep the evidence, start over: a broken file must not wedge the user's session.
  const aside = `${file}.corrupt-${Date.now()}`;
  await fs.rename(file, aside);
  options.logger?.warn('session state file was corrupt; moved aside and started fresh', { file, moved_to: aside });
  return freshSessionState(sessionId, options);
}

async function acquire(file: string, logger: CheckerLogger | undefined): Promise<() => Promise<void>> {
  try {
    return await lock(file, {
      realpath: false, // the state file may not exist yet
      stale: 10_000, // a holder that died is taken over after 10 s…
      retries: { retries: 60, factor: 1.3, minTimeout: 10, maxTimeout: 500, randomize: true }, // …which these retries outlast
      onCompromised: (error) => logger?.error('session state lock was lost while held', { file, error }),
    });
  } catch (error) {
    throw new CccError('INTERNAL', `Could not lock ${file}: ${(error as Error).message}. If no other ccc is running, delete ${file}.lock.`, {
      cause: error,
      data: { file },
    });
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
