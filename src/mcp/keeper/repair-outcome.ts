/**
 * What `self_test`'s repair did: nothing was wrong, a Worker was (re)started, or that failed. The
 * answer waits for the Worker it started (or found starting) to be ready or to fail.
 */
import { errorText } from '../../errors.js';
import type { WorkerConnection } from './worker-connection.js';

export type RepairOutcome =
  | { kind: 'ok'; pid: number | null }
  | { kind: 'restarted'; previousPid: number | null; newPid: number | null; reason: string }
  | { kind: 'failed'; previousPid: number | null; reason: string; error: string };

/** How the Worker before `conn` ended, if there was one. */
export interface PreviousExit {
  pid: number | null;
  reason: string;
}

/** Waits for a starting Worker; a first start (no Worker before it) is no repair. */
export async function awaitStart(conn: WorkerConnection, previous: PreviousExit | undefined): Promise<RepairOutcome> {
  try {
    await conn.ready;
    if (!previous) return { kind: 'ok', pid: conn.pid ?? null };
    return { kind: 'restarted', previousPid: previous.pid, newPid: conn.pid ?? null, reason: previous.reason };
  } catch (error) {
    const reason = previous?.reason ?? 'the worker was starting';
    return { kind: 'failed', previousPid: previous?.pid ?? null, reason, error: errorText(error) };
  }
}
