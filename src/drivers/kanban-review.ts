/**
 * `ccc kanban --supervise`: an Implementor's `ok` goes through the supervisor loop (`supervise`,
 * src/loop/supervise.ts, with this file's driver) before the Manager sees it. While the
 * checker finds the work incomplete, the Implementor's own session is resumed (`--resume
 * <session>`) with the feedback, under the same output schema and the same retry rule; the answer
 * it gives then is reviewed again. The loop's limits (iterations, no progress, cost cap) and a
 * failing checker stop the workflow with the exit codes of a headless supervised run. At the
 * iteration limit the loop stops before it resumes the Implementor: a run past the limit would be
 * paid for and never reviewed.
 */
import { transcriptPathFor } from '../frames/transcript.js';
import { turnStop } from '../stop/stop-event.js';
import type { SupervisorSession } from '../sessions/supervisor-session.js';
import { limitWaits, type LimitWaits } from '../loop/limit-wait.js';
import type { StopDecision } from '../loop/review-stop.js';
import { ExitCode, type CccError } from '../errors.js';
import type { AgentDriver, Answered, DriverEnding, DriverStop } from '../loop/driver.js';
import { reportersFor } from '../reporters/reporters.js';
import { supervise } from '../loop/supervise.js';
import type { Run } from '../loop/run.js';
import { exitCodeFor } from '../loop/exit-codes.js';
import { callAgent, type AgentCallDeps } from '../kanban/agent-call.js';
import type { AgentRequest } from '../kanban/agent-request.js';
import { formatReviewLimitEvent } from '../kanban/event-log.js';
import type { ImplementorReview } from '../kanban/workflow.js';

export interface SupervisedReviewOptions {
  session: SupervisorSession;
  /** The board's run: it claims each card's session, owns the reviews' reporters and closes them with the board. */
  run: Run;
  call: AgentCallDeps;
  /** Where the review's progress goes (stderr). */
  write: (text: string) => void;
}

type Answer = Parameters<ImplementorReview>[1];
type Reviewed = Awaited<ReturnType<ImplementorReview>>;

export function supervisedReview(options: SupervisedReviewOptions): ImplementorReview {
  const { session, run } = options;
  const max = session.config.supervisor.max_iterations;
  let card = '';
  // The reviews' progress lines (inert: a verdict's feedback is the model's text) and the Review Limit Event in the log.
  const log = options.call.log;
  const reviewLimits = {
    maxIterations: max,
    write: async (record: { reviews: number; checker: string; feedback: string }) => {
      const at = (options.call.now ?? (() => new Date()))();
      await log.append(formatReviewLimitEvent({ at, task: card, maxIterations: max, ...record })).catch((error: Error) => {
        options.write(`ccc kanban: cannot write ${log.file.display}: ${error.message}\n`);
      });
    },
  };
  let attached: Promise<void> | undefined;
  return async (request, first) => {
    const own = session.ownReporters((message) => options.write(`ccc: WARN: ${message}\n`));
    await (attached ??= reportersFor({ mode: 'kanban', write: options.write, reviewLimits, own }).then((reporters) => run.report(reporters)));
    card = request.label;
    // The loop alone, not a run (runSupervised): the card's reviews are part of the board's run, which says how it ended.
    // The card's session is claimed for its reviews (one supervisor per session: a `ccc --supervisor
    // -- --continue` started meanwhile would pick this newest session) and released when they end.
    const driver = new KanbanReviewDriver(session, options.call, request, first);
    try {
      const reviewed = await supervise(driver, session, run);
      return driver.reviewed(reviewed.decision, reviewed.ending);
    } finally {
      for (const id of driver.claimed) run.release(id);
    }
  };
}

/** A card's reviews: its stops are the Implementor's answers; a block resumes its session with the feedback. */
class KanbanReviewDriver implements AgentDriver {
  readonly mode = 'kanban';
  readonly blockPaysTurn = true;
  /** A kanban task has no wind-down turn: the board's own retry rule decides what happens next. */
  readonly windsDown = false;
  readonly waits: LimitWaits;
  readonly claimed = new Set<string>();
  private answer_: Answer;
  /** The resumed Implementor's answer when it was not an `ok` to review: the card's outcome as it is. */
  private unreviewed: Reviewed | undefined;
  private ending: DriverEnding | undefined;
  private turn = 0;

  constructor(
    private readonly session: SupervisorSession,
    private readonly call: AgentCallDeps,
    private readonly request: AgentRequest,
    first: Answer,
  ) {
    this.answer_ = first;
    const { limit_retry_seconds: retrySeconds, limit_wait_minutes: maxMinutes } = session.config.supervisor;
    this.waits = limitWaits({ retrySeconds, maxMinutes });
  }

  async *stops(): AsyncIterable<DriverStop> {
    while (!this.unreviewed) {
      this.turn++;
      const sessionId = this.answer_.run.sessionId;
      if (!sessionId) {
        const how = `The Implementor run for ${this.request.label} reported no session id, so it cannot be reviewed.`;
        this.ending = { exitCode: ExitCode.checkerFailed, how };
        return;
      }
      this.claimed.add(sessionId);
      // The cost cap of the supervisor loop counts the agent's turns as well as the reviews.
      this.session.addCost(this.answer_.run.costUsd);
      yield {
        event: turnStop({
          sessionId,
          transcriptPath: transcriptPathFor(this.session.env, this.session.cwd, sessionId),
          cwd: this.session.cwd,
          turn: this.turn,
          lastAssistantMessage: this.answer_.output.message,
        }),
        context: { userPrompts: [this.request.stdin], ...(this.call.signal ? { signal: this.call.signal } : {}) },
      };
    }
  }

  async notSupervised(stop: DriverStop, { message }: CccError<'SESSION_SUPERVISED'>): Promise<DriverEnding> {
    this.claimed.delete(stop.event.sessionId);
    return { exitCode: ExitCode.usage, how: `The review of ${this.request.label} did not start: ${message}` };
  }

  async answer(stop: DriverStop, decision: StopDecision): Promise<Answered> {
    if (decision.action !== 'block') return { end: decision };
    const result = await callAgent(resumeRequest(this.request, stop.event.sessionId, decision.feedback, this.turn), this.call);
    if (result.kind !== 'answered' || result.output.status !== 'ok') this.unreviewed = result;
    else this.answer_ = result;
    return 'next';
  }

  ended(): DriverEnding | undefined {
    return this.ending;
  }

  /** The card's outcome for the board: the answer, once confirmed; else why the review stopped it. */
  reviewed(decision: StopDecision | undefined, ending: DriverEnding | undefined): Reviewed {
    if (this.unreviewed) return this.unreviewed;
    if (ending) return { kind: 'stopped', exitCode: ending.exitCode, message: ending.how };
    if (!decision || decision.action === 'block') throw new Error('a kanban review ended without a decision');
    const exitCode = exitCodeFor(decision);
    if (exitCode === ExitCode.completed) return { kind: 'answered', ...this.answer_ };
    const max = this.session.config.supervisor.max_iterations;
    const stopped = `The review of ${this.request.label} ended without confirming the work`;
    // The last-iteration rule (its limit carries the last verdict): the next stop would be past the limit and allowed unreviewed.
    if (decision.action === 'allow' && decision.reason === 'limit' && decision.verdict) {
      const why = `the iteration limit (${max}) was reached with the work still incomplete; the Implementor is not run again, since nothing would review that run`;
      return { kind: 'stopped', exitCode, message: `${stopped}: ${why}. The last feedback is in ${this.call.log.file.display}.` };
    }
    return { kind: 'stopped', exitCode, message: `${stopped}: ${decision.message}` };
  }
}

/** The same agent, in its own session, told what the review found; the output rules stay. */
function resumeRequest(request: AgentRequest, sessionId: string, feedback: string, turn: number): AgentRequest {
  const [print, ...rest] = request.args;
  return {
    ...request,
    label: `${request.label} (review feedback ${turn})`,
    args: [print ?? '-p', '--resume', sessionId, ...rest],
    stdin: [
      'A review of your work on this task found it incomplete:',
      '',
      feedback.trim(),
      '',
      'Address this, update the Work Log, then answer again in the same JSON shape as before (with the StructuredOutput tool).',
      '',
    ].join('\n'),
  };
}
