/**
 * Spending guards (docs/design/stop-path.md, "Spending guards"): after a "not completed" verdict, a guard may end the loop
 * and hand back to the user instead of sending the feedback (no progress, cost cap). Guards keep
 * their own state across stops of one process; in hook mode they read the session state.
 */
import type { Verdict } from '../checkers/types.js';
import type { StopReason } from './events.js';

export interface GuardInput {
  sessionId: string;
  /** The session the task began in (another than `sessionId` when claude renamed the session mid-task): a task's history is kept under it. */
  taskSessionId?: string;
  cwd: string;
  iteration: number;
  verdict: Verdict;
  checker: string;
  /** The session's spend when its current task began (the per-task cost cap counts from it). */
  taskCostFrom?: number;
}

export interface GuardStop {
  reason: Extract<StopReason, 'no-progress' | 'cost-cap'>;
  message: string;
}

export interface StopGuard {
  name: string;
  afterVerdict(input: GuardInput): Promise<GuardStop | undefined> | GuardStop | undefined;
}
