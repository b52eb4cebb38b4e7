/**
 * One supervisor per session: `claims/<session id>.json` names the ccc process that supervises a
 * session now. A second ccc that would supervise the same session (a `--continue` or `--resume` of
 * it, a standalone Stop hook in another terminal) finds the claim and stands back instead of
 * sharing the first one's iteration counter, state file and log.
 *
 * The check and the write happen under a lock, so two ccc starting at the same instant cannot both
 * win. A claim whose process is gone (a ccc killed with SIGKILL) is stale and taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { CccError } from '../errors.js';
import { isProcessAlive } from '../process/process-alive.js';
import { writeFileAtomic } from './atomic-file.js';
import { cccDir, checkSessionId } from './paths.js';

export type ClaimMode = 'headless' | 'interactive' | 'hook' | 'kanban';

export interface SessionClaimRecord {
  pid: number;
  mode: ClaimMode;
  cwd: string;
  started_at: string;
}

export type ClaimResult = { taken: true; release: () => void } | { taken: false; holder: SessionClaimRecord };

export interface ClaimDeps {
  pid: number;
  isAlive: (pid: number) => boolean;
}

const DEFAULT_DEPS: ClaimDeps = { pid: process.pid, isAlive: isProcessAlive };

/** The lock is held for one read and one write; a holder killed in between is taken over after this long. */
const LOCK_STALE_MS = 10_000;

export function claimPath(configDir: string, sessionId: string): string {
  return path.join(cccDir(configDir), 'claims', `${checkSessionId(sessionId)}.json`);
}

/** The live holder of a session's claim other than this process, if any (read without locking: for messages and checks). */
export function liveHolder(configDir: string, sessionId: string, deps: ClaimDeps = DEFAULT_DEPS): SessionClaimRecord | undefined {
  const holder = readClaim(claimPath(configDir, sessionId));
  return holder && holder.pid !== deps.pid && deps.isAlive(holder.pid) ? holder : undefined;
}

/** Claims `sessionId` for this process, or answers which live ccc holds it. */
export async function claimSession(
  configDir: string,
  sessionId: string,
  claim: { mode: ClaimMode; cwd: string },
  deps: ClaimDeps = DEFAULT_DEPS,
): Promise<ClaimResult> {
  const file = claimPath(configDir, sessionId);
  const record: SessionClaimRecord = { pid: deps.pid, mode: claim.mode, cwd: claim.cwd, started_at: new Date().toISOString() };
  const liveOther = (holder: SessionClaimRecord | undefined) => holder !== undefined && holder.pid !== deps.pid && deps.isAlive(holder.pid);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const unlock = await lock(file, { realpath: false, stale: LOCK_STALE_MS, retries: { retries: 50, minTimeout: 20, maxTimeout: 200 } });
    try {
      const holder = readClaim(file);
      if (liveOther(holder)) return { taken: false, holder: holder! };
      await writeFileAtomic(file, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    } finally {
      await unlock().catch(() => {});
    }
  } catch (error) {
    if (!UNWRITABLE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    // A full or read-only config disk (its own warning says so elsewhere): a claim that is there is
    // still honoured; this one cannot be recorded, and the run goes on as every other state write does.
    const holder = readClaim(file);
    if (liveOther(holder)) return { taken: false, holder: holder! };
    return { taken: true, release: () => {} };
  }
  let released = false;
  return {
    taken: true,
    release: () => {
      if (released) return;
      released = true;
      // Only this process's own claim is removed: nobody else writes it while this process lives.
      // A disk that refuses the removal leaves a claim whose pid will be gone: the next ccc takes it over.
      try {
        if (readClaim(file)?.pid === deps.pid) fs.rmSync(file, { force: true });
      } catch {
        // see above
      }
    },
  };
}

/**
 * The claims one ccc process holds, taken and released through this one object: the launch's claim
 * (before claude starts) and the claims of the sessions its stops name later share it, and it is
 * released once, when the run ends.
 */
export class SessionClaims {
  private readonly held = new Map<string, () => void>();

  constructor(
    private readonly configDir: string,
    private readonly cwd: string,
    private readonly deps: ClaimDeps = DEFAULT_DEPS,
  ) {}

  /** Undefined when this process holds `id` (now or already), else the live ccc that does. */
  async claim(id: string, mode: ClaimMode): Promise<SessionClaimRecord | undefined> {
    if (this.held.has(id)) return undefined;
    const result = await claimSession(this.configDir, id, { mode, cwd: this.cwd }, this.deps);
    if (!result.taken) return result.holder;
    this.held.set(id, result.release);
    return undefined;
  }

  /** Gives up `id` before the run ends (a kanban card whose review is over). */
  release(id: string): void {
    this.held.get(id)?.();
    this.held.delete(id);
  }

  /** Every claim this process holds; a removal the disk refuses leaves a stale claim the next ccc takes over. */
  releaseAll(): void {
    for (const id of [...this.held.keys()]) this.release(id);
  }
}

/** Errors of a config disk that cannot take a write now. */
const UNWRITABLE: ReadonlySet<string> = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM']);

/**
 * The error a second supervisor of a session stops with, whichever mode met it: its data names the
 * session and the ccc that holds it; its message is `claimedMessage`'s unless the caller knows more
 * (a Stop hook that waited out another hook's review says so).
 */
export function sessionSupervisedError(
  sessionId: string,
  holder: SessionClaimRecord,
  message = claimedMessage(sessionId, holder),
): CccError<'SESSION_SUPERVISED'> {
  return new CccError('SESSION_SUPERVISED', message, { data: { sessionId, pid: holder.pid } });
}

/** The line that tells a second ccc why it stands back and how to go on. */
function claimedMessage(sessionId: string, holder: SessionClaimRecord): string {
  return (
    `session ${sessionId} is already supervised by ccc (pid ${holder.pid}, ${holder.mode}, since ${holder.started_at}); ` +
    'two supervisors would share one iteration counter, state file and log. Wait for that ccc to end, ' +
    'or branch the conversation into a session of its own with `-- --continue --fork-session` (or `-- --resume <id> --fork-session`).'
  );
}

function readClaim(file: string): SessionClaimRecord | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<SessionClaimRecord>;
    return Number.isSafeInteger(value.pid) && (value.pid as number) > 0 ? (value as SessionClaimRecord) : undefined;
  } catch {
    return undefined; // a torn or foreign file: nobody holds it
  }
}
