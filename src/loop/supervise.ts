/**
 * The supervised loop, once for every mode (docs/design/stop-path.md, "The loop"): for each stop the
 * driver brings, claim its session, review it within the model's limits, apply the denial rule and
 * the last-iteration rule, let the driver answer; at the end, the exit code and the `stopped` event,
 * each once, and what the run's last line says (said by runSupervised, run-supervised.ts). The
 * loop reads no mode: what differs is the driver's behaviour. A stop let through without the work done in a
 * session that goes on (interactive) is a `stopped` event too: a person away is told it (notify).
 */
import type { StopDecision } from './review-stop.js';
import { reviewStop } from './review-stop.js';
import { reviewWithinLimits } from './limit-wait.js';
import { decisionText } from './run-ending.js';
import { event, type SupervisorEvent } from './events.js';
import { windDownMessage } from './wind-down.js';
import type { SessionCore } from '../sessions/session-core.js';
import { isCccError, type CccError } from '../errors.js';
import type { AgentDriver, DriverEnding, DriverStop } from './driver.js';
import { exitCodeFor } from './exit-codes.js';

/** The reasons a stop is let through without the work done that a session which goes on says (the quiet ones: review-stop's). */
const SAID_WHEN_LET_STOP: ReadonlySet<string> = new Set(['limit', 'no-progress', 'cost-cap', 'checker-failed']);

/** What the session offers the loop. */
export type SupervisedSession = Pick<
  SessionCore,
  'config' | 'logger' | 'setSessionId' | 'reviewDeps' | 'emit' | 'endedAs' | 'interruption' | 'reviews' | 'reviewUsage' | 'endSpend' | 'signal'
>;

/** Where the loop claims each stop's session: the run's (`Run`, run.ts), the one place a session is claimed. */
export interface StopClaims {
  /** Undefined when this ccc holds the session, else the refusal naming the live ccc that does. */
  claim(sessionId: string): Promise<CccError<'SESSION_SUPERVISED'> | undefined>;
}

/** How the run ended: on a stop's decision, or as the driver says (the agent failed or exited, or was interrupted). */
export interface SupervisedRun {
  exitCode: number;
  decision?: StopDecision;
  ending?: DriverEnding;
  /** What the run's last log line and `end` event say (runSupervised); absent when the stops ended with nothing to say. */
  outcome?: DriverEnding;
}

export async function supervise(driver: AgentDriver, session: SupervisedSession, claims: StopClaims): Promise<SupervisedRun> {
  const { logger } = session;
  const { max_iterations: max, limit_wait_minutes: maxMinutes } = session.config.supervisor;
  let stoppedSaid: StopDecision | undefined;
  const emit = (e: SupervisorEvent) => {
    // A review cancelled by a signal is part of that signal's ending, which says so itself: one "stopped", not two.
    if (e.kind === 'stopped' && e.reason === 'cancelled' && session.interruption) return;
    session.emit(e);
  };

  for await (const stop of driver.stops()) {
    let next: 'next' | SupervisedRun;
    try {
      next = await decide(stop);
    } catch (error) {
      // A stop the driver can fail alone (interactive: as a hook process that crashed would): the next one is reviewed.
      if (!driver.stopFailed?.(error)) throw error;
      continue;
    }
    if (next !== 'next') return next;
  }
  if (session.interruption) return interrupted();
  const ending = driver.ended();
  return ending ? ended(ending) : { exitCode: 0 };

  /** One stop: claimed, reviewed within the model's limits, the rules applied, answered. 'next', or how the run ended. */
  async function decide(stop: DriverStop): Promise<'next' | SupervisedRun> {
    if (session.interruption) return interrupted();
    const { sessionId } = stop.event;
    session.setSessionId(sessionId); // the log follows the stop's session
    const refusal = await claims.claim(sessionId);
    if (refusal) {
      const refused = await driver.notSupervised(stop, refusal);
      if (refused === 'next') return 'next';
      return ended(refused);
    }

    let decision: StopDecision;
    try {
      const review = () => reviewStop(stop.event, { ...session.reviewDeps(), ...stop.context, emit });
      decision = await reviewWithinLimits(review, { logger, emit, waits: driver.waits, maxMinutes, signal: stop.context?.signal ?? session.signal });
    } catch (error) {
      if (!isCccError(error) || !driver.notReviewed) throw error;
      return driver.notReviewed(stop, error);
    }
    if (session.interruption) return interrupted();

    // The denial rule: turns in a row with calls the permission settings refused end supervision for the grant.
    const denials = await driver.denials?.(stop, decision);
    if (denials) {
      decision = denials.apply(decision);
      if (decision.action === 'allow' && decision.reason === 'permission-denied') {
        logger.warn(`stopped supervising: ${decision.message}`, { iteration: decision.iteration, tools: denials.tools.join(' ') });
        emit(event({ kind: 'stopped', reason: 'permission-denied', message: decision.message }));
        stoppedSaid = decision;
      }
    }

    // The last-iteration rule: no review is left for the turn this feedback would start, so stop
    // before paying for a run nothing would verify; the agent's last turn, if any, is the wind-down.
    if (decision.action === 'block' && driver.blockPaysTurn && decision.iteration >= max) decision = lastIteration(decision);

    const answered = await driver.answer(stop, decision);
    if (session.interruption) return interrupted();
    if (answered !== 'next') return finish(answered.end);
    // The agent stopped without the work done and the session goes on (interactive): why, said as a run's end says it.
    if (decision.action === 'allow' && SAID_WHEN_LET_STOP.has(decision.reason) && stoppedSaid !== decision)
      emit(event({ kind: 'stopped', reason: decision.reason, message: decision.message }));
    return 'next';
  }

  function lastIteration(block: Extract<StopDecision, { action: 'block' }>): StopDecision {
    const message = `the iteration limit (${max}) was reached without the checker confirming completion; the agent was not run again with the last feedback (it is in the log)`;
    logger.warn(`iteration limit reached (${max}); the last feedback was not sent to the agent`, { iteration: `${block.iteration}/${max}` });
    if (!(driver.windsDown && session.config.supervisor.wind_down)) {
      return { action: 'allow', reason: 'limit', message, iteration: block.iteration, verdict: block.verdict, checker: block.checker };
    }
    emit(event({ kind: 'wind-down', reason: 'limit', message }));
    return { action: 'wind-down', reason: 'limit', message, feedback: windDownMessage(message), iteration: block.iteration };
  }

  /** The run ends on a decision: its exit code (the driver's to map), and `stopped` unless completed or said already. */
  function finish(decision: StopDecision): SupervisedRun {
    const exitCode = decision.action === 'block' ? 0 : (driver.exitCodeOf ?? exitCodeFor)(decision);
    if (decision.action === 'allow' && decision.reason !== 'completed' && stoppedSaid !== decision)
      emit(event({ kind: 'stopped', reason: decision.reason, message: decision.message }));
    const reason = decision.action === 'block' ? {} : { reason: decision.reason };
    return { exitCode, decision, outcome: { exitCode, how: decisionText(decision), fields: reason } };
  }

  /** The run ends as the driver says (the agent failed or exited). */
  function ended(ending: DriverEnding): SupervisedRun {
    return { exitCode: ending.exitCode, ending, outcome: ending };
  }

  /** Ended from outside (a signal): the reason is shown and logged, the exit code is the signal's. */
  function interrupted(): SupervisedRun {
    const why = session.interruption!;
    const ending = { exitCode: why.exitCode, how: `interrupted: ${why.message}`, level: 'warn' as const };
    emit(event({ kind: 'stopped', reason: 'interrupted', message: why.message }));
    return { exitCode: why.exitCode, ending, outcome: ending };
  }
}
