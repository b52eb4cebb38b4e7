/**
 * A task's count and spend as the session state keeps them across stops (review-stop.ts): where the
 * next task begins, a task carried into the session claude renamed mid-task, the transcript read
 * past an unreviewed stop, and where a new task's spend starts.
 */
import type { CccConfig } from '../config/types.js';
import type { CheckerLogger } from '../checkers/types.js';
import { baselineStoresDir } from '../state/paths.js';
import { updateSessionState } from '../state/session-state.js';
import type { SessionState } from '../state/session-state-shape.js';
import type { StopEvent } from '../stop/stop-event.js';
import type { RunTask } from '../state/run-task.js';
import { takeBaseline } from '../checkers/reviewer/task-baseline.js';
import { event, isStopReason, type EventSink, type StopReason } from '../loop/events.js';
import type { CostCaps } from '../loop/cost-cap.js';

/** What of a stop's review deps the session state's bookkeeping reads. */
export interface TaskStateDeps {
  config: CccConfig;
  configDir: string;
  logger: CheckerLogger;
  emit?: EventSink;
  newTask?: boolean;
  caps?: CostCaps;
}

/** The project where the next task begins, for its fresh review's diff (checkers/reviewer/task-baseline.ts). */
export async function recordTaskEnd(stop: StopEvent, deps: TaskStateDeps): Promise<void> {
  const baseline = await takeBaseline(stop.cwd, { storesDir: baselineStoresDir(deps.configDir) });
  if (!baseline) return;
  const max = deps.config.supervisor.max_iterations;
  await updateSessionState(deps.configDir, stop.sessionId, (s) => ({ ...s, task_baseline: baseline }), { logger: deps.logger, maxIterations: max });
}

/**
 * The session state of a stop in a session claude renamed mid-task, with the task's count, spend
 * start and pending wind-down carried over from the run (the new id's own state knows none of them).
 */
export function carriedInto(stored: SessionState, run: RunTask): SessionState {
  const windDown = stored.wind_down ?? run.windDown;
  const costFrom = stored.task_cost_from_usd ?? run.taskCostFromUsd;
  const reviewCost = Math.max(stored.review_cost_usd ?? 0, run.reviewCostUsd ?? 0);
  return {
    ...stored,
    iteration: Math.max(stored.iteration, run.iteration),
    ...(costFrom === undefined ? {} : { task_cost_from_usd: costFrom }),
    ...(reviewCost > 0 ? { review_cost_usd: reviewCost } : {}),
    ...(windDown ? { wind_down: windDown } : {}),
  };
}

/**
 * A new session id within one task is claude's doing, not the user's: said in the log at every
 * such stop, and once in the run's events (a claude that renames its session at every turn would
 * otherwise look like a run that never passes its first review).
 */
export function sessionIdChanged(stop: StopEvent, run: RunTask, deps: TaskStateDeps): void {
  const message = `claude continued the task in a new session (${run.sessionId} → ${stop.sessionId}); the run's count goes on from ${run.iteration} of ${deps.config.supervisor.max_iterations} reviews`;
  deps.logger.warn(message, { session_id: stop.sessionId, previous_session_id: run.sessionId, task_session_id: run.taskSessionId });
  if (run.idChanges === 0)
    deps.emit?.(
      event({
        kind: 'warning',
        message: `claude gives the session a new id at each turn (${run.sessionId} → ${stop.sessionId}); the iteration count, the cost caps and the no-progress guard count per run, not per id. An up-to-date claude keeps its id (\`ccc doctor\`).`,
      }),
    );
}

/**
 * Where the transcript ended at a stop that was not reviewed: the next stop's turn is the one past
 * it (stop-context.ts), never this stop's, whose /goal status it would otherwise read again.
 */
export async function markStopRead(stop: StopEvent, frames: number, deps: TaskStateDeps): Promise<void> {
  if (frames === 0) return;
  const max = deps.config.supervisor.max_iterations;
  await updateSessionState(deps.configDir, stop.sessionId, (s) => ({ ...s, transcript_frames: frames }), { logger: deps.logger, maxIterations: max });
}

/**
 * Where a new task's spend starts: the session's spend at the previous task's last verdict. Not
 * the spend at this stop: claude's status line may have counted this task's first turn by then.
 * The session's first task, and a task the caller names (headless: the run's prompt), start from
 * 0; a spend recorded by another process that is above this one's starts from this one's.
 */
export function taskCostFrom(state: SessionState, deps: TaskStateDeps): number {
  const before = state.last_verdict?.spent_usd;
  if (before === undefined || deps.newTask === true || !deps.caps) return 0;
  return roundUsd(Math.min(before, deps.caps.spent()));
}

export function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}

/** A reason read back from the session state (a limit that winds down): a stop reason, else the iteration limit. */
export function asStopReason(reason: string): StopReason {
  return isStopReason(reason) ? reason : 'limit';
}
