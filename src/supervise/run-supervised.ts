/**
 * A supervised run, the same for every mode that is a run of its own (headless, interactive, the
 * standalone hook; a kanban card's reviews are part of the board's run): the loop over the driver's
 * stops (supervise.ts), then how it ended said once, on every path. The log's last line and the
 * `end` event when the loop ended; the log's last line naming the error when it failed (the error
 * goes on to the caller, whose entry prints it).
 */
import { event } from '../loop/events.js';
import { failureText } from '../loop/run-ending.js';
import { ExitCode, isCccError } from '../errors.js';
import type { AgentDriver, DriverEnding } from './driver.js';
import { supervise, type SupervisedRun, type SupervisedSession } from './supervise.js';

export async function runSupervised(driver: AgentDriver, session: SupervisedSession): Promise<SupervisedRun> {
  let run: SupervisedRun;
  try {
    run = await supervise(driver, session);
  } catch (error) {
    endRun(driver, session, driver.failedEnding?.(error) ?? failedEnding(error), false);
    throw error;
  }
  if (run.outcome) endRun(driver, session, run.outcome, true);
  return run;
}

/** The error's own words and exit code (a CccError's code in the line's fields). */
function failedEnding(error: unknown): DriverEnding {
  return {
    exitCode: isCccError(error) ? error.exitCode : ExitCode.error,
    how: failureText(error),
    level: 'error',
    fields: isCccError(error) ? { code: error.code } : {},
  };
}

/** The log's last line (the first ending said stands), and the `end` event of a run the loop ended. */
function endRun(driver: AgentDriver, session: SupervisedSession, ending: DriverEnding, said: boolean): void {
  const reviews = session.reviews;
  session.endedAs({
    mode: driver.mode,
    how: ending.how,
    exitCode: ending.exitCode,
    level: ending.level ?? 'info',
    fields: said ? { ...driver.endingFields?.(), ...ending.fields, reviews } : { ...ending.fields },
  });
  if (said) session.emit(event({ kind: 'end', exit_code: ending.exitCode, reviews, review_usage: session.reviewUsage, ...session.endSpend() }));
}
