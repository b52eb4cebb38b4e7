/**
 * `ccc --supervisor -p "<task>"` (or the task on stdin): the supervised loop without a terminal,
 * for CI. Each agent turn is a `claude -p` run: the first with the task and the user's claude
 * arguments as given, every later one with the checker's feedback, resuming exactly the agent's
 * own session (its id and working directory from the turn's frames; see session-flags.ts).
 * Between turns the same `reviewStop` as the interactive proxy decides. What the run shows (the
 * agent's text and progress lines, or `--json` lines) is its reporters' (src/supervise/reporters.ts),
 * fed by the session's events and frames. The run ends by naming the session and its log on stderr.
 */
import { modelFailure, modelFailureSentence } from '../claude/api-error.js';
import { runClaudePrint, type ClaudePrintResult } from '../claude/claude-print.js';
import { CccError, ExitCode } from '../errors.js';
import { inertText } from '../pty/inert-text.js';
import type { Frame } from '../frames/frame.js';
import { transcriptPathFor } from '../frames/transcript.js';
import { event, type EventSink } from './events.js';
import { runCost } from '../claude/usage.js';
import { reviewStop, type StopDecision } from './review-stop.js';
import { agentTurnArgs, type SessionPlan } from './session-flags.js';
import { endWindDown, windDownMessage, woundDownMessage } from './wind-down.js';
import { limitWaits, waitOutLimit, worthWaiting } from './limit-wait.js';
import { LIMIT_RESUME_NOTE } from './limit-resume-note.js';
import { DeniedTurns, deniedTools } from './permission-denials.js';
import type { SupervisorSession } from './supervisor-session.js';
import { sessionLogPath } from '../state/paths.js';
import { claimedMessage } from '../state/session-claims.js';
import { isProjectGone, requireProjectDir } from './project-dir.js';
import { toolCallsOf } from '../frames/tool-calls.js';
import { ToolCallFeed } from './tool-call-feed.js';
import { decisionText } from './run-ending.js';
import { exitCodeFor } from '../supervise/exit-codes.js';

export interface HeadlessOptions {
  task: string;
  /** Which session each agent turn is in: the user's flags on the first, the agent's own id after. */
  plan: SessionPlan;
  json: boolean;
  stderr: NodeJS.WritableStream;
}

/** The most frames of the agent a review is given (`ctx.frames`): the last ones. */
const RECENT_FRAMES = 500;

export async function runHeadless(session: SupervisorSession, options: HeadlessOptions): Promise<number> {
  try {
    return await loop(session, options);
  } finally {
    options.stderr.write(whereItIs(session));
  }
}

/** The last lines of a run: which session it was and where its log is, so a CI log leads to both. */
function whereItIs(session: SupervisorSession): string {
  const id = session.sessionId;
  if (!id) return 'ccc: no session was started (claude exited before it began one)\n';
  return `ccc: session ${id}, log ${sessionLogPath(session.configDir, id)}\nccc: continue it under supervision with \`ccc --supervisor -p "<next task>" -- --resume ${id}\`\n`;
}

async function loop(session: SupervisorSession, options: HeadlessOptions): Promise<number> {
  const emit: EventSink = (e) => {
    // A review cancelled by a signal is part of that signal's ending, which says so itself: one "stopped", not two.
    if (e.kind === 'stopped' && e.reason === 'cancelled' && session.interruption) return;
    session.emit(e);
  };
  // The agent's last frames, for each review's context: a plain bounded array.
  const recent: Frame[] = [];
  let sessionId: string | undefined;
  // The session's working directory: claude's `--worktree` moves the session into a new checkout,
  // and the reviewer must verify that one.
  let cwd = session.cwd;
  let message = options.task;
  let turn = 0;
  emit(event({ kind: 'start', task: options.task })); // the event log says what the run was for (ccc report)
  // The project before the agent touches it: a fresh review is given the change since (task-baseline.ts).
  await session.recordTaskStart();
  // The tools claude refused the agent in its last turn (its result frame's permission_denials).
  let denied: string[] = [];
  // Agent turns in a row with denied calls: at the limit the run stops for the grant, not for "no progress".
  const denials = new DeniedTurns();
  // The agent's tool calls, paced (tool-call-feed.ts); a turn's calls are all out before its review.
  const toolCalls = new ToolCallFeed(emit);
  const runTurn = (text: string) => {
    const args = ['-p', '--output-format', 'stream-json', '--verbose', ...agentTurnArgs(options.plan, sessionId)];
    denied = [];
    return runAgentTurn(session, args, text, (frame) => {
      if (frame.type === 'system' && frame.subtype === 'init' && typeof frame.cwd === 'string') cwd = frame.cwd;
      if (frame.type === 'result') denied = deniedTools(frame);
      recent.push(frame);
      if (recent.length > RECENT_FRAMES) recent.splice(0, recent.length - RECENT_FRAMES);
      session.onFrame(frame); // the reporters: the agent's text or `--json` lines, observers, the CI reports
      toolCalls.add(toolCallsOf(frame));
    }).finally(() => toolCalls.flush());
  };
  const waits = limitWaits({ retrySeconds: session.config.supervisor.limit_retry_seconds, maxMinutes: session.config.supervisor.limit_wait_minutes });
  const waitDeps = { logger: session.logger, emit, waits, maxMinutes: session.config.supervisor.limit_wait_minutes, signal: session.signal };
  for (;;) {
    turn++;
    if (session.interruption) return interrupted(session, emit, session.interruption);
    requireProjectDir(cwd, sessionId);
    emit(event({ kind: 'phase', phase: 'agent' }));
    const result = await runTurn(message);
    if (result.spawnError && isProjectGone(result.spawnError)) requireProjectDir(cwd, sessionId);
    if (result.spawnError) throw result.spawnError;
    sessionId = result.sessionId ?? sessionId;
    if (sessionId) session.setSessionId(sessionId); // the log exists even when the first turn fails
    // The session claude chose (a fork, a new one, a `--continue` that raced ours): another live ccc's is not reviewed here.
    const holder = sessionId ? await session.claim(sessionId, 'headless') : undefined;
    if (holder) {
      const claimed = claimedMessage(sessionId!, holder);
      session.logger.error(claimed);
      throw new CccError('SESSION_SUPERVISED', claimed, { data: { sessionId, pid: holder.pid } });
    }
    denials.record(denied);
    const deniedLine = denials.message();
    if (deniedLine) {
      session.logger.warn(deniedLine, { turn, tools: denied.join(' ') });
      if (!options.json) options.stderr.write(inertText(`ccc: ${deniedLine}\n`));
    }
    if (session.interruption) return interrupted(session, emit, session.interruption);
    if (result.exitCode !== 0 || !sessionId) {
      const code = result.exitCode && result.exitCode !== 0 ? result.exitCode : ExitCode.error;
      const failure = modelFailure(result);
      const said = agentFailure(result);
      session.logger.error(`agent turn failed: ${said}`, { turn, exit_code: result.exitCode, stderr: result.stderrTail });
      emit(event({ kind: 'error', message: said }));
      if (worthWaiting(failure?.kind)) {
        const waited = await waitOutLimit(waitDeps, 'agent', said);
        if (waited === 'interrupted') return interrupted(session, emit, session.interruption!);
        if (waited === 'waited') {
          // The refused turn's message is already in the session when it has one: the agent is asked to go on.
          if (sessionId) message = LIMIT_RESUME_NOTE;
          turn--;
          continue;
        }
      }
      return finish(session, emit, code, undefined, said);
    }
    let decision: StopDecision;
    for (;;) {
      decision = await reviewStop(
        {
          sessionId,
          transcriptPath: transcriptPathFor(session.env, cwd, sessionId),
          cwd,
          stopHookActive: turn > 1,
          lastAssistantMessage: result.resultText ?? '',
          backgroundTasks: [],
          raw: {},
        },
        // The run's first turn is its task, new whatever the session's history holds; every later one answers a block.
        { ...session.reviewDeps(), frames: [...recent], userPrompts: [options.task], newTask: turn === 1, emit },
      );
      if (session.interruption) return interrupted(session, emit, session.interruption);
      if (!(decision.action === 'allow' && decision.modelLimited)) break;
      // The model refused the review on a limit: the same stop is reviewed again once the wait is over.
      const waited = await waitOutLimit(waitDeps, 'reviewer', decision.message);
      if (waited === 'interrupted') return interrupted(session, emit, session.interruption!);
      if (waited === 'spent') break;
    }
    waits.reset();
    decision = denials.apply(decision);
    if (decision.action === 'allow' && decision.reason === 'permission-denied') {
      session.logger.warn(`stopped: ${decision.message}`, { iteration: decision.iteration, tools: denied.join(' ') });
      return finish(session, emit, exitCodeFor(decision), decision);
    }
    if (decision.action === 'block') {
      const max = session.config.supervisor.max_iterations;
      // No review is left for the turn this feedback would start: stop before paying for a run
      // nothing would verify; the agent's last turn, if any, is the wind-down.
      if (decision.iteration >= max) {
        const stop = `the iteration limit (${max}) was reached without the checker confirming completion; the agent was not run again with the last feedback (it is in the log)`;
        session.logger.warn(`iteration limit reached (${max}); the last feedback was not sent to the agent`, { iteration: `${decision.iteration}/${max}` });
        const limit = { action: 'allow', reason: 'limit', message: stop, iteration: decision.iteration } as const;
        if (!session.config.supervisor.wind_down) return finish(session, emit, ExitCode.limit, limit);
        emit(event({ kind: 'wind-down', reason: 'limit', message: stop }));
        return windDownTurn(session, emit, { ...limit, action: 'wind-down', feedback: windDownMessage(stop) }, (m) => runTurn(m));
      }
      message = decision.feedback; // with the note on denied calls (DeniedTurns.apply)
      continue;
    }
    if (decision.action === 'wind-down') return windDownTurn(session, emit, decision, (m) => runTurn(m));
    return finish(session, emit, exitCodeFor(decision), decision);
  }
}

/**
 * The agent's last turn at a limit (wind-down.ts): the wind-down message, not reviewed, its cost
 * counted like any turn's; then the run ends with the limit's reason and exit code, whatever
 * that turn did.
 */
async function windDownTurn(
  session: SupervisorSession,
  emit: EventSink,
  decision: Extract<StopDecision, { action: 'wind-down' }>,
  runTurn: (message: string) => Promise<ClaudePrintResult>,
): Promise<number> {
  emit(event({ kind: 'phase', phase: 'agent' }));
  session.logger.warn(`${decision.message}; the agent is asked to write down where the work stands (one last turn, not reviewed)`);
  const result = await runTurn(decision.feedback);
  if (session.sessionId) await endWindDown(session.configDir, session.sessionId, session.logger);
  if (session.interruption) return interrupted(session, emit, session.interruption);
  if (result.exitCode !== 0)
    session.logger.warn(`the wind-down turn failed: ${agentFailure(result)}`, { exit_code: result.exitCode, stderr: result.stderrTail });
  return finish(session, emit, exitCodeFor(decision), { action: 'allow', reason: decision.reason, message: woundDownMessage(decision.message) });
}

function runAgentTurn(session: SupervisorSession, args: string[], message: string, onFrame: (f: Frame) => void): Promise<ClaudePrintResult> {
  session.logger.debug('agent turn', { command: [session.config.claude.command, ...args].join(' ') });
  return runClaudePrint({
    command: session.config.claude.command,
    args,
    stdin: message,
    cwd: session.cwd,
    env: session.agentEnv(),
    logger: session.logger,
    signal: session.signal, // ended from outside: the turn stops with it
    onFrame: (frame) => {
      // A resumed turn's total_cost_usd is the whole session's so far: only this turn's cost counts.
      if (frame.type === 'result') session.addCost(runCost(frame));
      onFrame(frame);
    },
  });
}

function agentFailure(result: ClaudePrintResult): string {
  const failure = modelFailure(result);
  if (failure) return modelFailureSentence('agent', failure);
  const lastLine = result.stderrTail.trim().split('\n').pop();
  return `the agent exited with code ${result.exitCode}${lastLine ? `: ${lastLine}` : ''}`;
}

function finish(
  session: SupervisorSession,
  emit: EventSink,
  code: number,
  decision?: Extract<StopDecision, { action: 'allow' }>,
  agentFailed?: string,
): number {
  if (decision && decision.reason !== 'completed') emit(event({ kind: 'stopped', reason: decision.reason, message: decision.message }));
  session.endedAs({
    mode: 'headless',
    how: decision ? decisionText(decision) : `agent failed: ${agentFailed ?? 'no session'}`,
    exitCode: code,
    level: decision ? 'info' : 'error',
    fields: { reason: decision?.reason ?? 'agent-failed', reviews: session.reviews },
  });
  emit(event({ kind: 'end', exit_code: code, reviews: session.reviews, review_usage: session.reviewUsage }));
  return code;
}

/** Ended from outside (headless-signals.ts): the reason is shown and logged, the exit code is the signal's. */
function interrupted(session: SupervisorSession, emit: EventSink, why: { message: string; exitCode: number }): number {
  session.endedAs({ mode: 'headless', how: `interrupted: ${why.message}`, exitCode: why.exitCode, level: 'warn', fields: { reviews: session.reviews } });
  emit(event({ kind: 'stopped', reason: 'interrupted', message: why.message }));
  emit(event({ kind: 'end', exit_code: why.exitCode, reviews: session.reviews, review_usage: session.reviewUsage }));
  return why.exitCode;
}
