/**
 * `ccc --supervisor -p "<task>"` (or the task on stdin): the supervised loop without a terminal,
 * for CI. The headless driver of `supervise` (src/loop/supervise.ts): each agent turn is a
 * `claude -p` run, the first with the task and the user's claude arguments as given, every later
 * one with the checker's feedback, resuming exactly the agent's own session (its id and working
 * directory from the turn's frames; see session-flags.ts); the end of each turn is a stop. What
 * the run shows (the agent's text and progress lines, or `--json` lines) is its reporters'
 * (src/reporters/reporters.ts), fed by the session's events and frames. The run ends by naming
 * the session and its log on stderr.
 */
import { modelFailure, modelFailureSentence } from '../claude/api-error.js';
import { runClaudePrint, type ClaudePrintResult } from '../claude/claude-print.js';
import { runCost } from '../claude/usage.js';
import { CccError, ExitCode } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { toolCallsOf } from '../frames/tool-calls.js';
import { transcriptPathFor } from '../frames/transcript.js';
import { turnStop } from '../stop/stop-event.js';
import { inertText } from '../pty/inert-text.js';
import { sessionLogPath } from '../state/paths.js';
import type { AgentDriver, Answered, DriverEnding, DriverStop } from '../loop/driver.js';
import { runSupervised } from '../loop/run-supervised.js';
import type { Run } from '../loop/run.js';
import { event } from '../loop/events.js';
import { LIMIT_RESUME_NOTE } from '../loop/limit-resume-note.js';
import { limitWaits, waitOutLimit, worthWaiting, type LimitWaits } from '../loop/limit-wait.js';
import { DeniedTurns, deniedTools } from '../loop/permission-denials.js';
import { isProjectGone, requireProjectDir } from '../loop/project-dir.js';
import type { StopDecision } from '../loop/review-stop.js';
import { agentTurnArgs, type SessionPlan } from '../sessions/session-flags.js';
import type { SupervisorSession } from '../sessions/supervisor-session.js';
import { ToolCallFeed } from '../loop/tool-call-feed.js';
import { endWindDown, woundDownMessage } from '../loop/wind-down.js';
import { childEndText } from '../process/child-end.js';

export interface HeadlessOptions {
  task: string;
  /** Which session each agent turn is in: the user's flags on the first, the agent's own id after. */
  plan: SessionPlan;
  json: boolean;
  stderr: NodeJS.WritableStream;
}

/** The most frames of the agent a review is given (`ctx.frames`): the last ones. */
const RECENT_FRAMES = 500;

export async function runHeadless(run: Run, session: SupervisorSession, options: HeadlessOptions): Promise<number> {
  try {
    return (await runSupervised(run, new HeadlessDriver(session, options), session)).exitCode;
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

/** Stops are the ends of `claude -p` turns; a block is the next turn's message, paid for. */
class HeadlessDriver implements AgentDriver {
  readonly mode = 'headless';
  readonly blockPaysTurn = true;
  readonly windsDown = true;
  readonly waits: LimitWaits;
  /** The agent's last frames, for each review's context: a plain bounded array. */
  private readonly recent: Frame[] = [];
  private sessionId: string | undefined;
  /** The session's working directory: claude's `--worktree` moves the session into a new checkout, and the reviewer must verify that one. */
  private cwd: string;
  /** The next turn's message: the task, then each block's feedback (with the note on denied calls). */
  private message: string;
  /** The tools claude refused the agent in its last turn (its result frame's permission_denials). */
  private denied: string[] = [];
  /** Agent turns in a row with denied calls: at the limit the run stops for the grant, not for "no progress". */
  private readonly deniedTurns = new DeniedTurns();
  /** The agent's tool calls, paced (tool-call-feed.ts); a turn's calls are all out before its review. */
  private readonly toolCalls: ToolCallFeed;
  private ending: DriverEnding | undefined;

  constructor(
    private readonly session: SupervisorSession,
    private readonly options: HeadlessOptions,
  ) {
    this.cwd = session.cwd;
    this.message = options.task;
    this.toolCalls = new ToolCallFeed((e) => session.emit(e));
    const { limit_retry_seconds: retrySeconds, limit_wait_minutes: maxMinutes } = session.config.supervisor;
    this.waits = limitWaits({ retrySeconds, maxMinutes });
  }

  async *stops(): AsyncIterable<DriverStop> {
    const { session } = this;
    session.emit(event({ kind: 'start', task: this.options.task })); // the event log says what the run was for (ccc report)
    // The project before the agent touches it: a fresh review is given the change since (task-baseline.ts).
    await session.recordTaskStart();
    for (let turn = 1; ; turn++) {
      if (session.interruption) return;
      requireProjectDir(this.cwd, this.sessionId);
      session.emit(event({ kind: 'phase', phase: 'agent' }));
      const result = await this.runTurn(this.message);
      if (result.spawnError && isProjectGone(result.spawnError)) requireProjectDir(this.cwd, this.sessionId);
      if (result.spawnError) throw result.spawnError;
      this.sessionId = result.sessionId ?? this.sessionId;
      if (this.sessionId) session.setSessionId(this.sessionId); // the log exists even when the first turn fails
      this.deniedTurns.record(this.denied);
      const deniedLine = this.deniedTurns.message();
      if (deniedLine) {
        session.logger.warn(deniedLine, { turn, tools: this.denied.join(' ') });
        if (!this.options.json) this.options.stderr.write(inertText(`ccc: ${deniedLine}\n`));
      }
      if (session.interruption) return;
      if (result.exitCode !== 0 || !this.sessionId) {
        if (await this.waitedOut(result, turn)) {
          turn--;
          continue;
        }
        return;
      }
      const sessionId = this.sessionId;
      yield {
        event: turnStop({
          sessionId,
          transcriptPath: transcriptPathFor(session.env, this.cwd, sessionId),
          cwd: this.cwd,
          turn,
          lastAssistantMessage: result.resultText ?? '',
        }),
        // The run's first turn is its task, new whatever the session's history holds; every later one answers a block.
        context: { frames: [...this.recent], userPrompts: [this.options.task], newTask: turn === 1 },
      };
    }
  }

  /** A failed turn: waited out when the model refused it on a limit (true: run it again), else the run's ending. */
  private async waitedOut(result: ClaudePrintResult, turn: number): Promise<boolean> {
    const { session } = this;
    const code = result.exitCode && result.exitCode !== 0 ? result.exitCode : ExitCode.error;
    const said = agentFailure(result);
    session.logger.error(`agent turn failed: ${said}`, { turn, exit_code: result.exitCode, stderr: result.stderrTail });
    session.emit(event({ kind: 'error', message: said }));
    if (worthWaiting(modelFailure(result)?.kind)) {
      const { logger, signal } = session;
      const waited = await waitOutLimit(
        { logger, emit: (e) => session.emit(e), waits: this.waits, maxMinutes: session.config.supervisor.limit_wait_minutes, signal },
        'agent',
        said,
      );
      if (waited === 'interrupted') return false;
      if (waited === 'waited') {
        // The refused turn's message is already in the session when it has one: the agent is asked to go on.
        if (this.sessionId) this.message = LIMIT_RESUME_NOTE;
        return true;
      }
    }
    this.ending = { exitCode: code, how: `agent failed: ${said}`, level: 'error', fields: { reason: 'agent-failed' } };
    return false;
  }

  async notSupervised(_stop: DriverStop, refused: CccError<'SESSION_SUPERVISED'>): Promise<never> {
    this.session.logger.error(refused.message);
    throw refused;
  }

  async denials(): Promise<DeniedTurns> {
    return this.deniedTurns;
  }

  async answer(_stop: DriverStop, decision: StopDecision): Promise<Answered> {
    if (decision.action === 'block') {
      this.message = decision.feedback; // with the note on denied calls (DeniedTurns.apply)
      return 'next';
    }
    if (decision.action === 'wind-down') return { end: await this.windDownTurn(decision) };
    return { end: decision };
  }

  ended(): DriverEnding | undefined {
    return this.ending;
  }

  /**
   * The agent's last turn at a limit (wind-down.ts): the wind-down message, not reviewed, its cost
   * counted like any turn's; then the run ends with the limit's reason and exit code, whatever
   * that turn did.
   */
  private async windDownTurn(decision: Extract<StopDecision, { action: 'wind-down' }>): Promise<StopDecision> {
    const { session } = this;
    session.emit(event({ kind: 'phase', phase: 'agent' }));
    session.logger.warn(`${decision.message}; the agent is asked to write down where the work stands (one last turn, not reviewed)`);
    const result = await this.runTurn(decision.feedback);
    if (session.sessionId) await endWindDown(session.configDir, session.sessionId, session.logger);
    if (result.exitCode !== 0 && !session.interruption)
      session.logger.warn(`the wind-down turn failed: ${agentFailure(result)}`, { exit_code: result.exitCode, stderr: result.stderrTail });
    return { action: 'allow', reason: decision.reason, message: woundDownMessage(decision.message) };
  }

  private runTurn(text: string): Promise<ClaudePrintResult> {
    const { session } = this;
    const args = ['-p', '--output-format', 'stream-json', '--verbose', ...agentTurnArgs(this.options.plan, this.sessionId)];
    this.denied = [];
    session.logger.debug('agent turn', { command: [session.config.claude.command, ...args].join(' ') });
    return runClaudePrint({
      command: session.config.claude.command,
      args,
      stdin: text,
      cwd: session.cwd,
      env: session.agentEnv(),
      logger: session.logger,
      signal: session.signal, // ended from outside: the turn stops with it
      onFrame: (frame) => {
        // A resumed turn's total_cost_usd is the whole session's so far: only this turn's cost counts.
        if (frame.type === 'result') session.addCost(runCost(frame));
        if (frame.type === 'system' && frame.subtype === 'init' && typeof frame.cwd === 'string') this.cwd = frame.cwd;
        if (frame.type === 'result') this.denied = deniedTools(frame);
        this.recent.push(frame);
        if (this.recent.length > RECENT_FRAMES) this.recent.splice(0, this.recent.length - RECENT_FRAMES);
        session.onFrame(frame); // the reporters: the agent's text or `--json` lines, observers, the CI reports
        this.toolCalls.add(toolCallsOf(frame));
      },
    }).finally(() => this.toolCalls.flush());
  }
}

function agentFailure(result: ClaudePrintResult): string {
  const failure = modelFailure(result);
  if (failure) return modelFailureSentence('agent', failure);
  const lastLine = result.stderrTail.trim().split('\n').pop();
  return `the agent ${childEndText(result)}${lastLine ? `: ${lastLine}` : ''}`;
}
