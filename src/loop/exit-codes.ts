/**
 * The exit code of a run that ended on a stop's decision (docs/exit-codes.md): a run the agent may
 * end (completed, supervision off, the reviewer's own stop, background tasks) exits 0; a failed
 * checker 4; denied tools 2 (the invocation must grant them); every limit 3.
 */
import { ExitCode } from '../errors.js';
import type { StopReason } from './events.js';

export function exitCodeFor(decision: { reason: StopReason }): number {
  switch (decision.reason) {
    case 'completed':
    case 'disabled':
    case 'recursion':
    case 'background-tasks':
      return ExitCode.completed;
    case 'checker-failed':
      return ExitCode.checkerFailed;
    case 'permission-denied':
      return ExitCode.usage; // the run cannot succeed until the user grants the tools: a fix to the invocation, not a limit
    default:
      return ExitCode.limit;
  }
}
