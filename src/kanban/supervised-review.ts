/**
 * `ccc kanban --supervise`: an Implementor's `ok` goes through the supervisor loop (the checker
 * pipeline, `reviewStop`) before the Manager sees it. While the checker finds the work incomplete,
 * the Implementor's own session is resumed (`--resume <session>`) with the feedback, under the
 * same output schema and the same retry rule; the answer it gives then is reviewed again. The
 * loop's limits (iterations, no progress, cost cap) and a failing checker stop the workflow with
 * the exit codes of a headless supervised run. At the iteration limit the loop stops before it
 * resumes the Implementor: a run past the limit would be paid for and never reviewed.
 */
import { transcriptPathFor } from '../frames/transcript.js';
import { exitCodeFor } from '../supervise/exit-codes.js';
import { reviewStop } from '../loop/review-stop.js';
import type { SupervisorSession } from '../loop/supervisor-session.js';
import { ExitCode } from '../errors.js';
import { claimedMessage } from '../state/session-claims.js';
import { callAgent, type AgentCallDeps } from './agent-call.js';
import type { AgentRequest } from './agent-request.js';
import { formatReviewLimitEvent } from './supervisor-log.js';
import type { ImplementorReview } from './workflow.js';
import { reportersFor } from '../supervise/reporters.js';

export interface SupervisedReviewOptions {
  session: SupervisorSession;
  call: AgentCallDeps;
  /** Where the review's progress goes (stderr). */
  write: (text: string) => void;
}

export function supervisedReview(options: SupervisedReviewOptions): ImplementorReview {
  const { session } = options;
  // The reviews' progress lines (inert: a verdict's feedback is the model's text) on the run's stderr.
  let attached: Promise<void> | undefined;
  return async (request, first) => {
    await (attached ??= reportersFor({ mode: 'kanban', write: options.write }).then((reporters) => reporters.forEach((r) => void session.reporters.add(r))));
    // The card's session is claimed for its reviews (one supervisor per session: a `ccc --supervisor
    // -- --continue` started meanwhile would pick this newest session) and released when they end.
    const claimed = new Set<string>();
    try {
      return await reviewCard(request, first, claimed);
    } finally {
      for (const id of claimed) session.releaseClaim(id);
    }
  };

  async function reviewCard(request: AgentRequest, first: Parameters<ImplementorReview>[1], claimed: Set<string>): ReturnType<ImplementorReview> {
    let answer = first;
    for (let turn = 1; ; turn++) {
      const sessionId = answer.run.sessionId;
      if (!sessionId) {
        return {
          kind: 'stopped',
          exitCode: ExitCode.checkerFailed,
          message: `The Implementor run for ${request.label} reported no session id, so it cannot be reviewed.`,
        };
      }
      if (!claimed.has(sessionId)) {
        const holder = await session.claim(sessionId, 'kanban');
        if (holder)
          return { kind: 'stopped', exitCode: ExitCode.usage, message: `The review of ${request.label} did not start: ${claimedMessage(sessionId, holder)}` };
        claimed.add(sessionId);
      }
      session.setSessionId(sessionId);
      // The cost cap of the supervisor loop counts the agent's turns as well as the reviews.
      session.addCost(answer.run.costUsd);
      const decision = await reviewStop(
        {
          sessionId,
          transcriptPath: transcriptPathFor(session.env, session.cwd, sessionId),
          cwd: session.cwd,
          stopHookActive: turn > 1,
          lastAssistantMessage: answer.output.message,
          backgroundTasks: [],
          raw: {},
        },
        { ...session.reviewDeps(), userPrompts: [request.stdin], signal: options.call.signal },
      );
      // A kanban task has no wind-down turn: the board's own retry rule decides what happens next.
      if (decision.action !== 'block') {
        const exitCode = exitCodeFor(decision);
        if (exitCode === ExitCode.completed) return { kind: 'answered', ...answer };
        return { kind: 'stopped', exitCode, message: `The review of ${request.label} ended without confirming the work: ${decision.message}` };
      }
      const max = session.config.supervisor.max_iterations;
      if (decision.iteration >= max) {
        // The next stop would be past the limit and allowed unreviewed: do not pay for that run.
        const why = `the iteration limit (${max}) was reached with the work still incomplete; the Implementor is not run again, since nothing would review that run`;
        const log = options.call.log;
        await log.append(
          formatReviewLimitEvent({
            at: (options.call.now ?? (() => new Date()))(),
            task: request.label,
            reviews: decision.iteration,
            maxIterations: max,
            checker: decision.checker,
            feedback: decision.feedback,
          }),
        );
        return {
          kind: 'stopped',
          exitCode: ExitCode.limit,
          message: `The review of ${request.label} ended without confirming the work: ${why}. The last feedback is in ${log.file.display}.`,
        };
      }
      const resumed = resumeRequest(request, sessionId, decision.feedback, turn);
      const result = await callAgent(resumed, options.call);
      if (result.kind !== 'answered' || result.output.status !== 'ok') return result;
      answer = result;
    }
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
