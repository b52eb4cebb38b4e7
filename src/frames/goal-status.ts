/**
 * Claude Code's session goal (`/goal <condition>`, or the agent's SetGoal tool), as the transcript
 * records it: `goal_status` attachments (claude 2.1.330, pinned in test/claude/goal.test.ts):
 *
 * - set: `{type:'goal_status', met:false, sentinel:true, condition}`;
 * - cleared by the user (`/goal clear`): `{met:true, sentinel:true, condition}`;
 * - its evaluator's check at a stop: not met `{met:false, condition, reason}` (the reason goes to
 *   the agent and the agent goes on), met `{met:true, condition, reason, iterations, …}` or
 *   impossible `{met:false, failed:true, condition, reason, …}` (both end the goal).
 *
 * The tracker folds those, with the agent's messages and the user's prompts around them, into the
 * goal the current task carries (docs/design/stop-path.md, "A /goal beside ccc").
 */
import type { Frame } from './frame.js';

/** How Claude Code's evaluator answered at one stop. */
type GoalCheck = 'not-met' | 'met' | 'impossible';

export interface SessionGoal {
  condition: string;
  /** `active` while Claude Code's evaluator still checks it at every stop; else how it ended. */
  state: 'active' | 'met' | 'impossible';
  /** Active when the agent's last message was written: its evaluator runs at this stop too. */
  checkedAtStop: boolean;
  /** The evaluator's answer recorded after the agent's last message (this stop's), once written. */
  thisStop?: GoalCheck;
}

interface GoalStatus {
  type: 'goal_status';
  condition: string;
  met?: unknown;
  sentinel?: unknown;
  failed?: unknown;
}

export interface GoalTracker {
  add(frame: Frame): void;
  /** An assistant frame: the stop that follows it is checked against the goal as it is now. */
  assistant(): void;
  /** A prompt the user typed: a goal that has ended belongs to the task before it. */
  prompt(): void;
  result(): SessionGoal | undefined;
}

/** A tracker starting from `from`, the goal an earlier reading of the same transcript left (transcript-summary.ts). */
export function createGoalTracker(from?: SessionGoal): GoalTracker {
  let goal: SessionGoal | undefined = from ? { ...from } : undefined;
  return {
    add(frame) {
      const status = goalStatusOf(frame);
      if (!status) return;
      if (status.sentinel === true) {
        // Set (met:false) or cleared by the user (met:true): a cleared goal is no longer asked for.
        goal = status.met === true ? undefined : { condition: status.condition, state: 'active', checkedAtStop: false };
        return;
      }
      if (!goal || goal.condition !== status.condition) return;
      const check: GoalCheck = status.failed === true ? 'impossible' : status.met === true ? 'met' : 'not-met';
      goal = { ...goal, state: check === 'not-met' ? 'active' : check, thisStop: goal.thisStop ?? check };
    },
    assistant() {
      if (goal) goal = { condition: goal.condition, state: goal.state, checkedAtStop: goal.state === 'active' };
    },
    prompt() {
      if (goal && goal.state !== 'active') goal = undefined;
    },
    result: () => (goal ? { ...goal } : undefined),
  };
}

function goalStatusOf(frame: Frame): GoalStatus | undefined {
  if (frame.type !== 'attachment') return undefined;
  const attachment = (frame as { attachment?: unknown }).attachment;
  if (typeof attachment !== 'object' || attachment === null) return undefined;
  const status = attachment as Partial<GoalStatus>;
  if (status.type !== 'goal_status' || typeof status.condition !== 'string' || status.condition.trim() === '') return undefined;
  return status as GoalStatus;
}
