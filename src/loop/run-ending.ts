/**
 * How a run ended, said once as the last line of its session log, the same way in every mode:
 *   … exit_code=3 mode=headless run ended: limit: 20 reviews without completion
 * Someone reading a log after the fact (or a tool tailing it) learns from that one line whether the
 * run finished, was limited, interrupted, or failed, without knowing which mode wrote it.
 */
import type { CheckerLogger } from '../checkers/types.js';
import type { StopDecision } from './review-stop.js';
import { errorText } from '../errors.js';

export type RunMode = 'headless' | 'interactive' | 'kanban' | 'hook';

export interface RunEnding {
  mode: RunMode;
  /** What ended the run, in a few words ("completed: …", "SIGTERM received; …", "error: …"). */
  how: string;
  /** The exit code of the process (the hook's is always 0: a stop it cannot decide goes through). */
  exitCode: number | null;
  /** WARN for an interruption, ERROR for a failure; INFO otherwise. */
  level?: 'info' | 'warn' | 'error';
  /** More `key=value`s for the line (a stop reason, the number of reviews, an error code). */
  fields?: Record<string, unknown>;
}

const RUN_ENDED = 'run ended';

export function logRunEnded(logger: CheckerLogger, ending: RunEnding): void {
  logger[ending.level ?? 'info'](`${RUN_ENDED}: ${ending.how}`, { exit_code: ending.exitCode, mode: ending.mode, ...ending.fields });
}

const COMPLETED = 'completed: ';

/** A stop's decision in a few words, for the ending it led to. */
export function decisionText(decision: StopDecision): string {
  if (decision.action === 'block') return `not complete (review ${decision.iteration}): the agent was sent back`;
  if (decision.action === 'wind-down') return `${decision.reason}: ${decision.message} (the agent was given a last turn)`;
  if (decision.reason === 'completed') return COMPLETED + decision.message;
  return `${decision.reason}: ${decision.message}`;
}

/** Whether a stop's words (`decisionText`) say a checker confirmed the work complete. */
export function confirmsCompletion(stopText: string | undefined): boolean {
  return stopText?.startsWith(COMPLETED) ?? false;
}

/** An error's words for the ending it caused. */
export function failureText(error: unknown): string {
  return `error: ${errorText(error)}`;
}
