/**
 * Waiting out the model's limits in a run left alone. When the agent's turn or a review fails on a
 * rate limit (429: a per-minute limit or a subscription's usage window) or an overloaded model
 * (529), claude has already retried and given up; ccc waits and resumes the same session.
 *
 * claude reports no reset time (docs/design/claude-facts.md, "Rate limits and the context window"), so the
 * wait is a schedule: `supervisor.limit_retry_seconds` first, doubling, at most MAX_STEP_MS a step,
 * until `supervisor.limit_wait_minutes` in all (0: no waiting). Nothing is sent while waiting; each
 * resume is one request, which a still-limited API refuses at no cost. The schedule starts afresh
 * after a turn or a review that got through.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelFailureKind } from '../claude/api-error.js';
import type { CheckerLogger } from '../checkers/types.js';
import { event, type EventSink } from './events.js';

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
async function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export interface LimitWaitDeps {
  logger: CheckerLogger;
  emit: EventSink;
  waits: LimitWaits;
  /** `supervisor.limit_wait_minutes`, named when the budget is spent. */
  maxMinutes: number;
  /** Ends the wait: a signal to the run, or (interactive) the user taking the turn over. */
  signal: AbortSignal;
}

/**
 * One wait on the model's limit, said on every channel with the time it ends (the log, and the
 * `waiting` event that the progress line, the title and the observer show): 'waited' when it is
 * over, 'spent' when the waiting budget was used up (the failure then stands), 'interrupted' when
 * the signal ended it. The first two end with a `wait-over` event (the run's own ending says the
 * third).
 */
export async function waitOutLimit(deps: LimitWaitDeps, who: 'agent' | 'reviewer', failure: string): Promise<'waited' | 'spent' | 'interrupted'> {
  const ms = deps.waits.next();
  if (ms === undefined) {
    if (deps.maxMinutes > 0) {
      deps.logger.warn(`gave up waiting on the model's limit after ${deps.maxMinutes} min (supervisor.limit_wait_minutes)`);
      deps.emit(event({ kind: 'wait-over', who, outcome: 'gave-up', waited_ms: deps.waits.waitedMs }));
    }
    return 'spent';
  }
  const until = new Date(Date.now() + ms);
  deps.logger.warn(`waiting on the model's limit until ${until.toISOString()}, then resuming the session: ${failure}`, {
    who,
    wait_ms: ms,
    waited_ms: deps.waits.waitedMs,
  });
  deps.emit(event({ kind: 'waiting', who, message: failure, until: until.toISOString() }));
  deps.emit(event({ kind: 'phase', phase: 'idle' }));
  if (!(await waitUnlessAborted(ms, deps.signal))) return 'interrupted';
  deps.logger.info(`the wait on the model's limit is over; resuming the ${who === 'agent' ? "agent's turn" : 'review'}`, { who });
  deps.emit(event({ kind: 'wait-over', who, outcome: 'resumed', waited_ms: deps.waits.waitedMs }));
  return 'waited';
}

/** What the wait reads of a stop's decision: a review the model refused on a limit is an `allow` marked `modelLimited`, saying why. */
interface LimitedDecision {
  action: string;
  modelLimited?: boolean;
  message?: string;
}

/**
 * A stop's review, waited out on the model's limits inside the stop (interactive, the standalone
 * hook): a review the model refused on a limit is run again for the same stop after each wait;
 * when the budget is spent or the wait is ended, the refused review's answer stands (the stop is
 * let through, saying the model could not be reached).
 */
export async function reviewWithinLimits<Decision extends LimitedDecision>(review: () => Promise<Decision>, deps: LimitWaitDeps): Promise<Decision> {
  for (;;) {
    const decision = await review();
    if (!(decision.action === 'allow' && decision.modelLimited)) {
      deps.waits.reset();
      return decision;
    }
    if ((await waitOutLimit(deps, 'reviewer', decision.message ?? '')) !== 'waited') return decision;
  }
}

/** "22:14:05 (in 2 min)" / "(in 30 s)": when a wait ends, as a person reads it in a log or a title. */
export function resumeTimeText(until: Date, ms: number): string {
  const clock = until.toTimeString().slice(0, 8);
  const span = ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
  return `${clock} (in ${span})`;
}
