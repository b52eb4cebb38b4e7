/**
 * Waiting out the model's limits in a run left alone. When the agent's turn or a review fails on a
 * rate limit (429: a per-minute limit or a subscription's usage window) or an overloaded model
 * (529), claude has already retried and given up; ccc waits and resumes the same session.
 *
 * claude reports no reset time (docs/claude-facts.md, "Rate limits and the context window"), so the
 * wait is a schedule: `supervisor.limit_retry_seconds` first, doubling, at most MAX_STEP_MS a step,
 * until `supervisor.limit_wait_minutes` in all (0: no waiting). Nothing is sent while waiting; each
 * resume is one request, which a still-limited API refuses at no cost. The schedule starts afresh
 * after a turn or a review that got through.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelFailureKind } from '../claude/api-error.js';

/** A usage window resets on the hour; a step longer than this would only add idle time past it. */
const MAX_STEP_MS = 15 * 60_000;

export function worthWaiting(kind: ModelFailureKind | undefined): boolean {
  return kind === 'rate-limited' || kind === 'overloaded';
}

export interface LimitWaits {
  /** How long to wait before the next resume, or undefined when the waiting budget is spent. */
  next(): number | undefined;
  /** A turn or a review got through: the next limit starts the schedule afresh. */
  reset(): void;
  /** What was waited since the last reset (ms). */
  readonly waitedMs: number;
}

export function limitWaits(options: { retrySeconds: number; maxMinutes: number }): LimitWaits {
  let step = options.retrySeconds * 1000;
  let waited = 0;
  const budget = options.maxMinutes * 60_000;
  return {
    next() {
      const left = budget - waited;
      if (left <= 0) return undefined;
      const ms = Math.min(step, MAX_STEP_MS, left);
      waited += ms;
      step = Math.min(step * 2, MAX_STEP_MS);
      return ms;
    },
    reset() {
      step = options.retrySeconds * 1000;
      waited = 0;
    },
    get waitedMs() {
      return waited;
    },
  };
}

/** Waits `ms`; false when `signal` ended the wait first (the run was interrupted). */
export async function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** "22:14:05 (in 2 min)" / "(in 30 s)": when a wait ends, as a person reads it in a log or a title. */
export function resumeTimeText(until: Date, ms: number): string {
  const clock = until.toTimeString().slice(0, 8);
  const span = ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
  return `${clock} (in ${span})`;
}
