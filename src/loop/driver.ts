/**
 * Where a supervised run's stops come from and how their decisions are answered: one AgentDriver
 * per mode (headless `claude -p` turns, kanban's Implementor, the standalone Stop hook, the
 * interactive TUI's hook), driven by the one loop, `supervise` (supervise.ts), inside the one run,
 * `runSupervised` (run-supervised.ts), as the MCP SDK's Protocol drives any Transport. The rules
 * (claims, reviews within the model's limits, the denial rule, the last-iteration rule, exit codes,
 * stop and end events, the log's last line) are the loop's and the run's; a driver moves stops and
 * answers, and supplies what its mode does differently (an exit code, a failed run's line).
 */
import type { LimitWaits } from './limit-wait.js';
import type { DeniedTurns } from './permission-denials.js';
import type { ReviewStopDeps, StopDecision } from './review-stop.js';
import type { RunMode } from './run-ending.js';
import type { StopEvent } from '../stop/stop-event.js';
import type { CccError } from '../errors.js';

/** What a mode knows of a stop beyond claude's Stop hook input, for its review. */
type StopReviewInputs = Pick<ReviewStopDeps, 'frames' | 'recentFrames' | 'userPrompts' | 'newTask' | 'blockCap' | 'signal'>;

export interface DriverStop {
  event: StopEvent;
  context?: StopReviewInputs;
}

/** A run that ended without a decision ending it: the agent failed, or exited (interactive). */
export interface DriverEnding {
  exitCode: number;
  /** How it ended, in a few words, for the log's last line. */
  how: string;
  level?: 'info' | 'warn' | 'error';
  fields?: Record<string, unknown>;
}

/** After an answer: the next stop, or the run ends with this decision. */
export type Answered = 'next' | { end: Extract<StopDecision, { action: 'allow' }> | StopDecision };

export interface AgentDriver {
  readonly mode: RunMode;
  /**
   * A block starts a paid agent turn (headless, kanban): at the last review the loop stops before
   * it, since nothing would review that turn. Interactive and the hook: claude goes on by itself,
   * and the stop that comes past the limit is allowed by `reviewStop`.
   */
  readonly blockPaysTurn: boolean;
  /** A limit gives the agent one last, unreviewed turn (`supervisor.wind_down`); kanban's board decides instead. */
  readonly windsDown: boolean;
  /** The schedule of waits on the model's limits, shared with the driver's own (the agent's refused turns). */
  readonly waits: LimitWaits;
  /** The stops, one at a time: the next is asked for once the last is answered. Ends when the agent does. */
  stops(): AsyncIterable<DriverStop>;
  /** Another live ccc supervises the stop's session (`refused` says which): 'next' when that stop is let through, else the driver throws it or ends. */
  notSupervised(stop: DriverStop, refused: CccError<'SESSION_SUPERVISED'>): Promise<'next' | DriverEnding>;
  /** A review that ended in a CccError (the project went away): interactive lets the stop through; absent, the error ends the run. */
  notReviewed?(stop: DriverStop, error: CccError): Promise<'next'>;
  /** The turn's denied tool calls, recorded, when the denial rule applies to this decision. */
  denials?(stop: DriverStop, decision: StopDecision): Promise<DeniedTurns | undefined>;
  /** Answers the decision: block → the feedback to the agent, wind-down → its last turn, allow → the stop goes through. */
  answer(stop: DriverStop, decision: StopDecision): Promise<Answered>;
  /** How the run ended once the stops did without a decision ending it. */
  ended(): DriverEnding | undefined;
  /** More fields for the log's last line. */
  endingFields?(): Record<string, unknown>;
  /** The exit code of a run a decision ended; absent, the loop's (exitCodeFor). The standalone hook's is always 0. */
  exitCodeOf?(decision: StopDecision): number;
  /**
   * How the run ended when it failed (the log's last line); absent, the error's own words and exit
   * code. The standalone hook lets the stop through, exit 0.
   */
  failedEnding?(error: unknown): DriverEnding;
  /** A stop whose handling threw: true when the driver failed that stop alone (the loop takes the next), false to end the run with the error. */
  stopFailed?(error: unknown): boolean;
}
