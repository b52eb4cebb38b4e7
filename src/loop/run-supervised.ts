/**
 * The loop of a run (supervise.ts, over the driver's stops) and how it ended, said once on every
 * path: the log's last line and the `end` event when the loop ended; the log's last line naming the
 * error when it failed (the error goes on to the caller, whose entry prints it). The run around it,
 * its claims, reporters and lifetime, is `Run` (run.ts).
 */
import type { SessionCore } from '../sessions/session-core.js';
import type { AgentDriver } from './driver.js';
import { endRun, failedEnding, type Run } from './run.js';
import { supervise, type SupervisedRun } from './supervise.js';

/** The loop over the driver's stops (supervise.ts) in `run`, and how it ended said once: the log's last line, and the `end` event. */
export async function runSupervised(run: Run, driver: AgentDriver, session: SessionCore): Promise<SupervisedRun> {
  run.hold(session);
  let result: SupervisedRun;
  try {
    result = await supervise(driver, session, run);
  } catch (error) {
    endRun(driver.mode, session, driver.failedEnding?.(error) ?? failedEnding(error), false);
    throw error;
  }
  if (result.outcome) endRun(driver.mode, session, result.outcome, true, driver.endingFields?.());
  return result;
}
