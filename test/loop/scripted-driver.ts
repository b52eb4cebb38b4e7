/**
 * An AgentDriver from a script, for the loop's own tests (test/loop/supervise.test.ts), as the
 * MCP SDK's tests drive Protocol through a scripted Transport: its stops are made up (no claude),
 * its answers recorded. A driver whose block pays for a turn (headless, kanban) ends the run on an
 * allow and after a wind-down turn; one whose agent goes on by itself (interactive) takes the
 * next stop after every answer, until the script has none.
 */
import { ExitCode, type CccError } from '../../src/errors.js';
import { limitWaits, type LimitWaits } from '../../src/loop/limit-wait.js';
import { DeniedTurns } from '../../src/loop/permission-denials.js';
import type { StopDecision } from '../../src/loop/review-stop.js';
import type { RunMode } from '../../src/loop/run-ending.js';
import { woundDownMessage } from '../../src/loop/wind-down.js';
import type { AgentDriver, Answered, DriverEnding, DriverStop } from '../../src/loop/driver.js';
import { turnStop } from '../../src/stop/stop-event.js';

export interface Script {
  cwd: string;
  mode?: RunMode;
  /** Headless-like (true, the default) or interactive-like. */
  blockPaysTurn?: boolean;
  windsDown?: boolean;
  /** How many stops the agent makes at most. */
  stops: number;
  /** The tools claude refused in each turn (by stop index). */
  denied?: string[][];
  /** The stop's session: the same one throughout unless given per stop. */
  sessionId?: (index: number) => string;
  /** Called before each stop is handed to the loop (to interrupt the run, say). */
  beforeStop?: (index: number) => void;
  /** The stop (by index) whose answer throws, as a driver that fails mid-run does. */
  throwsAt?: number;
  /** The driver fails a stop that threw alone (as interactive does), and the loop takes the next. */
  failsStopAlone?: boolean;
  /** The driver's own exit code for a decision that ended the run (the standalone hook's is 0). */
  exitCodeOf?: (decision: StopDecision) => number;
  /** The driver's own line for a run that failed. */
  failedEnding?: (error: unknown) => DriverEnding;
}

export class ScriptedDriver implements AgentDriver {
  readonly mode: RunMode;
  readonly blockPaysTurn: boolean;
  readonly windsDown: boolean;
  /** Waits on the model's limits last no time here: the loop's rule is under test, not the clock. */
  readonly waits: LimitWaits = { ...limitWaits({ retrySeconds: 0, maxMinutes: 1 }), next: () => 0 };
  readonly answers: StopDecision[] = [];
  readonly refused: string[] = [];
  /** The stops this driver failed alone. */
  readonly failed: unknown[] = [];
  readonly exitCodeOf?: (decision: StopDecision) => number;
  readonly failedEnding?: (error: unknown) => DriverEnding;
  readonly stopFailed?: (error: unknown) => boolean;
  private readonly turns = new DeniedTurns();
  private given = 0;

  constructor(private readonly script: Script) {
    this.mode = script.mode ?? 'headless';
    this.blockPaysTurn = script.blockPaysTurn ?? true;
    this.windsDown = script.windsDown ?? true;
    if (script.exitCodeOf) this.exitCodeOf = script.exitCodeOf;
    if (script.failedEnding) this.failedEnding = script.failedEnding;
    if (script.failsStopAlone) this.stopFailed = (error) => this.failed.push(error) > 0;
  }

  async *stops(): AsyncIterable<DriverStop> {
    for (let i = 0; i < this.script.stops; i++) {
      this.given = i + 1;
      this.script.beforeStop?.(i);
      this.turns.record(this.script.denied?.[i] ?? []);
      yield {
        event: turnStop({
          sessionId: this.script.sessionId?.(i) ?? 'scripted-session',
          transcriptPath: '',
          cwd: this.script.cwd,
          turn: i + 1,
          lastAssistantMessage: `turn ${i + 1}`,
        }),
        context: { frames: [], userPrompts: ['the task'], newTask: i === 0 },
      };
    }
  }

  async notSupervised(_stop: DriverStop, refused: CccError<'SESSION_SUPERVISED'>): Promise<'next'> {
    this.refused.push(refused.message);
    return 'next';
  }

  async denials(): Promise<DeniedTurns> {
    return this.turns;
  }

  async answer(_stop: DriverStop, decision: StopDecision): Promise<Answered> {
    if (this.given - 1 === this.script.throwsAt) throw new Error(`the answer to stop ${this.given} could not be given`);
    this.answers.push(decision);
    if (!this.blockPaysTurn || decision.action === 'block') return 'next';
    if (decision.action === 'wind-down') return { end: { action: 'allow', reason: decision.reason, message: woundDownMessage(decision.message) } };
    return { end: decision };
  }

  /** The script ran out of stops: the agent stopped making them (interactive: it exited 0). */
  ended(): DriverEnding {
    return { exitCode: ExitCode.completed, how: `the agent made ${this.given} stops` };
  }
}
