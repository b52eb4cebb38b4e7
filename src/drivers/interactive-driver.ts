/**
 * The interactive TUI's driver of `supervise` (src/loop/supervise.ts): its stops are the Stop
 * hook's calls over the stop channel, taken one at a time (interactive-stops.ts); a decision is
 * answered as the hook's output (a block with the feedback, or nothing, the verdict shown where
 * claude shows hook messages), and claude goes on by itself. The loop ends when the agent exits
 * (`close`); the run's ending is the agent's (`ended`), said once the loop has settled.
 */
import { shownVerdictOf } from '../checkers/verdict-text.js';
import type { CccError } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { transcriptPathFor } from '../frames/transcript.js';
import { inertText } from '../pty/inert-text.js';
import { hookOutput } from '../loop/hook-output.js';
import { parseStopInput, type StopEvent } from '../stop/stop-event.js';
import type { AgentDriver, Answered, DriverEnding, DriverStop } from '../loop/driver.js';
import { supervisedBlockCap } from '../loop/agent-env.js';
import { event } from '../loop/events.js';
import { interactiveEnding, type InteractiveEndingInput } from './interactive-ending.js';
import { HookCalls, type HookCall } from './interactive-stops.js';
import type { LimitWaits } from '../loop/limit-wait.js';
import { DeniedTurns, deniedInTurn } from '../loop/permission-denials.js';
import type { StopDecision } from '../loop/review-stop.js';
import { decisionText } from '../loop/run-ending.js';
import type { SupervisorSession } from '../sessions/supervisor-session.js';

export interface InteractiveDriverDeps {
  session: SupervisorSession;
  /** The session's schedule of waits on the model's limits, shared with the agent's refused turns. */
  waits: LimitWaits;
  /** The live frame window of `sessionId` once it has seen `atLeast` frames (agent-frames.ts). */
  recentFrames(sessionId: string, atLeast: number): Promise<readonly Frame[]>;
  /** A StopFailure: the agent's turn ended on an API error (agent-limit-wait.ts waits a limit out). */
  onStopFailure(stop: StopEvent): void;
}

/** The stop being decided: its hook call, and the note on the turn's denied calls once known. */
interface Current {
  call: HookCall;
  note?: { text: string; tools: string };
}

export class InteractiveDriver implements AgentDriver {
  readonly mode = 'interactive';
  /** claude continues the session itself after a block: the stop past the limit is reviewStop's to allow, its wind-down too. */
  readonly blockPaysTurn = false;
  readonly windsDown = true;
  readonly waits: LimitWaits;
  private readonly calls = new HookCalls();
  /** Where each session's transcript is, as its stop said: a `--worktree` session's is not under ccc's own directory. */
  private readonly transcripts = new Map<string, string>();
  /** The agent's turns in a row with calls the permission settings refused, per session (the rule headless follows too). */
  private readonly denied = new Map<string, DeniedTurns>();
  private current: Current | undefined;
  /** The last stop's outcome in words, for how the run ended. */
  private lastStop: string | undefined;
  /** How the agent ended, once it has. */
  private exited: Omit<InteractiveEndingInput, 'lastStop'> | undefined;

  constructor(private readonly deps: InteractiveDriverDeps) {
    this.waits = deps.waits;
  }

  /** The stop channel's handler: a Stop waits its turn in the loop; a StopFailure and malformed input are answered at once. */
  hookCall(input: string, hookGone: AbortSignal): Promise<string> {
    const parsed = parseStopInput(input);
    if (!parsed.ok) {
      this.deps.session.logger.warn(`malformed Stop hook input: ${parsed.error}`);
      return Promise.resolve('');
    }
    if (parsed.value.raw.hook_event_name === 'StopFailure') {
      this.deps.onStopFailure(parsed.value);
      return Promise.resolve('');
    }
    return this.calls.call(parsed.value, hookGone);
  }

  /** Where a session's transcript is (as its stop named it, else claude's place for the project). */
  transcriptOf(sessionId: string): string {
    const { session } = this.deps;
    return this.transcripts.get(sessionId) ?? transcriptPathFor(session.env, session.cwd, sessionId);
  }

  async *stops(): AsyncIterable<DriverStop> {
    const { session } = this.deps;
    for (let call = await this.calls.next(); call; call = await this.calls.next()) {
      this.current = { call };
      const { stop, hookGone } = call;
      // Before the loop names the session: the frame tail follows it from this path.
      if (stop.transcriptPath) this.transcripts.set(stop.sessionId, stop.transcriptPath);
      yield {
        event: stop,
        context: {
          // Esc or Ctrl-C in the TUI makes claude kill its running Stop hook (pinned in
          // test/loop/review-cancel.test.ts): the hook hanging up cancels the review, and a wait on
          // the model's limit, as the agent's exit does.
          signal: AbortSignal.any([hookGone, session.signal]),
          recentFrames: (id, atLeast) => this.deps.recentFrames(id, atLeast),
          blockCap: supervisedBlockCap(session.config.supervisor.max_iterations),
        },
      };
    }
  }

  /** A session the user moved to inside the TUI (`/resume`) that another live ccc supervises: that ccc reviews it, not this one. */
  async notSupervised(_stop: DriverStop, { message }: CccError<'SESSION_SUPERVISED'>): Promise<'next'> {
    const { session } = this.deps;
    this.lastStop = `not reviewed: ${message}`;
    session.logger.warn(`stop not reviewed: ${message}`);
    session.emit(event({ kind: 'error', message: `stop not reviewed: ${message}` }));
    this.reply(JSON.stringify({ systemMessage: inertText(`ccc: stop not reviewed: ${message}`) }));
    return 'next';
  }

  /** The project went away (or the like): the stop goes through unreviewed, and the user sees why where claude shows hook messages. */
  async notReviewed(_stop: DriverStop, error: CccError): Promise<'next'> {
    const { session } = this.deps;
    this.lastStop = `not reviewed: ${error.message}`;
    session.logger.error(`stop not reviewed: ${error.message}`, { code: error.code });
    session.emit(event({ kind: 'error', message: error.message }));
    this.reply(JSON.stringify({ systemMessage: inertText(`ccc: stop not reviewed: ${error.message}`) }));
    return 'next';
  }

  /** A reviewed turn: the calls the settings refused in it, read from the live frame window, are recorded for the denial rule. */
  async denials(stop: DriverStop, decision: StopDecision): Promise<DeniedTurns | undefined> {
    if (!(decision.action === 'block' || (decision.action === 'allow' && decision.verdict))) return undefined;
    const id = stop.event.sessionId;
    const turns = this.denied.get(id) ?? new DeniedTurns();
    this.denied.set(id, turns);
    const denied = deniedInTurn(await this.deps.recentFrames(id, 0));
    turns.record(denied.tools, denied, decision.iteration);
    const text = turns.message();
    if (this.current && text) this.current.note = { text, tools: denied.tools.join(' ') };
    return turns;
  }

  async answer(_stop: DriverStop, decision: StopDecision): Promise<Answered> {
    const { session } = this.deps;
    // The turn's denied calls are named with the answer, unless they ended supervision: that stop's own message names the grant.
    const note = decision.action === 'allow' && decision.reason === 'permission-denied' ? undefined : this.current?.note;
    if (note) {
      session.logger.warn(note.text, { tools: note.tools });
      session.emit(event({ kind: 'error', message: note.text }));
    }
    this.lastStop = decisionText(decision);
    // A /goal that sends the agent back keeps it working as a block or a wind-down does.
    session.emit(event({ kind: 'phase', phase: decision.action === 'allow' && decision.reason !== 'goal' ? 'idle' : 'agent' }));
    const shown = shownVerdictOf(decision.action === 'wind-down' ? undefined : decision.verdict);
    this.reply(hookOutput(decision, { showVerdict: true, ...(shown ? { shown } : {}), ...(note ? { note: inertText(note.text) } : {}) }));
    return 'next';
  }

  /**
   * Read once the loop has ended, so a review the agent's exit cancelled has answered first: the
   * ending names that stop, not the one before it (a completion then would read as done).
   */
  ended(): DriverEnding | undefined {
    const ending = this.ending();
    return ending && this.exited && { how: ending.how, exitCode: this.exited.exitCode, ...(ending.level ? { level: ending.level } : {}) };
  }

  /** Once closed on the agent's exit: that the work was not confirmed complete, in words, unless it was. */
  unconfirmedWork(): string | undefined {
    return this.ending()?.unconfirmed;
  }

  private ending() {
    return this.exited && interactiveEnding({ ...this.exited, ...(this.lastStop ? { lastStop: this.lastStop } : {}) });
  }

  /**
   * The agent is gone (or the run failed): no more stops are taken, those waiting are answered ''
   * and the loop ends once the stop it holds is answered. `exited` is how the agent ended, for the
   * run's ending; the first close stands.
   */
  close(exited?: Omit<InteractiveEndingInput, 'lastStop'>): void {
    this.exited ??= exited;
    this.calls.close();
  }

  /**
   * A review that throws fails only its own stop, as a hook process that crashed would (the stop
   * channel answers it '' and logs why); the loop takes the next. False when no stop was held.
   */
  stopFailed(error: unknown): boolean {
    const current = this.current;
    this.current = undefined;
    current?.call.fail(error);
    return current !== undefined;
  }

  private reply(output: string): void {
    this.current?.call.answer(output);
    this.current = undefined;
  }
}
