/**
 * A `/goal` beside ccc at a stop (docs/design/stop-path.md, "A /goal beside ccc"). Claude Code runs the
 * goal's evaluator and ccc's Stop hook side by side, and when both block it sends the agent both
 * reasons. While the evaluator sends the agent back, ccc lets that be the stop's one message and
 * reviews at the stop the goal lets through (met, impossible, cleared, or one claude would not
 * send back any more): its review then judges the goal's condition with the rest of the task.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TranscriptSummary } from '../frames/transcript.js';

/**
 * How long a stop waits for the evaluator's answer to appear in the transcript: Claude Code's
 * limit for a prompt hook (its evaluator is one; past it Claude Code lets the stop through).
 */
const GOAL_CHECK_WAIT_MS = 30_000;
const GOAL_CHECK_POLL_MS = 50;

export interface GoalStopOptions {
  /** The transcript read again (the evaluator's answer is written there while ccc's hook waits). */
  reread(): Promise<Pick<TranscriptSummary, 'goal'>>;
  /** Claude Code's cap on Stop-hook blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP). */
  blockCap: number;
  signal?: AbortSignal;
  waitMs?: number;
}

/** True when the goal's evaluator sends the agent back at this stop, and Claude Code will honour it. */
export async function goalSendsAgentBack(summary: Pick<TranscriptSummary, 'goal' | 'stopsSentBack'>, options: GoalStopOptions): Promise<boolean> {
  let goal = summary.goal;
  if (!goal?.checkedAtStop) return false;
  // Past the cap Claude Code ends the turn whatever the hooks say: this stop is the last, so ccc reviews it.
  if (summary.stopsSentBack + 1 > options.blockCap) return false;
  const deadline = Date.now() + (options.waitMs ?? GOAL_CHECK_WAIT_MS);
  while (goal?.thisStop === undefined && Date.now() < deadline && !options.signal?.aborted) {
    await sleep(GOAL_CHECK_POLL_MS);
    goal = (await options.reread()).goal;
  }
  return goal?.thisStop === 'not-met';
}
