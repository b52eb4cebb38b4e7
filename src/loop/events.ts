/**
 * What the supervisor does, as events: shown on stderr in headless mode, as JSON lines with
 * `--json`, sent to observers (docs/design/observer.md), and logged.
 */
import type { Evidence } from '../checkers/evidence.js';
import type { Opinion, ReviewKind } from '../checkers/types.js';
import type { Verification } from '../checkers/verification.js';
import type { Usage } from '../claude/usage.js';
import type { ToolCall } from '../frames/tool-calls.js';

export type SupervisorEvent =
  | { kind: 'start'; task: string; at: string }
  | { kind: 'phase'; phase: 'agent' | 'review' | 'idle'; at: string }
  /** A review begins; `task` as in `verdict`, so that observers see what is checked while it runs. */
  | { kind: 'iteration'; n: number; max: number; task?: string; at: string }
  | { kind: 'checker'; checker: string; state: 'start' | 'done' | 'error'; duration_ms?: number; at: string }
  /**
   * `evidence`: the verification commands of the round with their exit codes (absent when no checker reports any).
   * `verification`: what the verdict comes to (verificationOf); ccc always sets it, readers of older logs derive it.
   */
  | {
      kind: 'verdict';
      checker: string;
      completed: boolean;
      feedback: string;
      iteration: number;
      verification?: Verification;
      /** What `verification` rests on in words (verificationDetails): ccc sets it (`--json`, event logs), and the observer server for its page, which cannot derive them itself. */
      verification_details?: string;
      evidence?: Evidence[];
      /** The claude reviewer's kind of review (`forked`, `compacted`, `fresh`: checkers/types.ts); absent for other checkers. */
      review?: ReviewKind;
      /** Every reviewer's own verdict, when the round's reviewers did not all find the work complete (checkers/agreement.ts). */
      opinions?: Opinion[];
      usage?: Usage;
      /** The user's prompt for the task under review (the last one), clipped to TASK_CHARS: observers see what is being checked. */
      task?: string;
      /** What the run has spent (USD, the agent's turns and the reviews) and its cap (`supervisor.max_cost_usd`), when ccc knows it. */
      spent_usd?: number;
      cap_usd?: number;
      /** What the current task has spent and its cap (`supervisor.max_task_cost_usd`). */
      task_spent_usd?: number;
      task_cap_usd?: number;
      at: string;
    }
  | { kind: 'stopped'; reason: StopReason; message: string; at: string }
  /** The model refused the agent's turn or a review on a limit: ccc waits until `until` (ISO 8601), then resumes the session. */
  | { kind: 'waiting'; who: 'agent' | 'reviewer'; message: string; until: string; at: string }
  /** A wait on the model's limit ended: `resumed` (the refused turn or review is asked again), or `gave-up` (`supervisor.limit_wait_minutes` spent; the failure stands). */
  | { kind: 'wait-over'; who: 'agent' | 'reviewer'; outcome: 'resumed' | 'gave-up'; waited_ms: number; at: string }
  /**
   * The headless agent's tool calls as they happen (src/loop/tool-calls.ts): a name and a short,
   * inert summary of each call's input; at most one event a second with at most TOOL_CALLS_LISTED
   * calls (`more` counts the calls left out), so a busy agent cannot flood observers.
   */
  | { kind: 'tools'; calls: ToolCall[]; more: number; at: string }
  /** A limit was reached: the agent is given one last, unreviewed turn to write down where the work stands. */
  | { kind: 'wind-down'; reason: StopReason; message: string; at: string }
  /** Something the user should know that does not end the run (claude renamed the session mid-task, a stray ccc variable in the environment). */
  | { kind: 'warning'; message: string; at: string }
  /** A checker failed (`usage`: what it spent before it did), or the agent did. */
  | { kind: 'error'; message: string; usage?: Usage; at: string }
  /**
   * The run is over. `spent_usd`: what it spent in all (the agent's turns and the reviews, as the
   * caps count it); `wind_down_usd`: of that, what it spent from the wind-down on (its last turn).
   */
  | { kind: 'end'; exit_code: number | null; reviews?: number; review_usage?: Usage; spent_usd?: number; wind_down_usd?: number; at: string };

/**
 * Why the loop let the agent stop: the one list, which the reports (src/reporters/ci/run-record.ts),
 * the exit codes (src/loop/exit-codes.ts) and the session state read back.
 */
export const STOP_REASONS = [
  'completed',
  'limit',
  'no-progress',
  'permission-denied',
  'cost-cap',
  'checker-failed',
  'disabled',
  'background-tasks',
  /** The /goal evaluator sent the agent back: the stop is let through unreviewed and the agent keeps working; never a run's end. */
  'goal',
  'recursion',
  'cancelled',
  /** Ended from outside (a signal). */
  'interrupted',
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

export function isStopReason(value: unknown): value is StopReason {
  return (STOP_REASONS as readonly unknown[]).includes(value);
}

/** The most characters of the task a verdict event carries. */
export const TASK_CHARS = 500;

export type EventSink = (event: SupervisorEvent) => void;

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;

export function event(e: WithoutAt<SupervisorEvent>): SupervisorEvent {
  return { ...e, at: new Date().toISOString() };
}
