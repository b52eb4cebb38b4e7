/**
 * The checker contract (docs/design/reviewer.md). A checker reviews the agent's work each time the agent
 * stops and answers with a Verdict. Checkers run in a pipeline, in configured order; the first
 * "not completed" ends the round and its feedback becomes the agent's next message.
 *
 * Lifecycle: `onSessionStart` once when a supervised session starts, `onFrame` for every
 * stream-json frame of the agent, `check` at every stop, `onSessionEnd` once at the end. All hooks
 * are optional except `check`, and may be async. A checker must honour `signal`: when it aborts
 * (timeout or shutdown) the checker stops its work and its child processes.
 */
import type { Usage } from '../claude/usage.js';
import type { Frame } from '../frames/frame.js';
import type { Evidence } from './evidence.js';
import type { ReviewKind, Verification } from './verification.js';
import type { CheckerLogger } from '../log/checker-logger.js';

export type { CheckerLogger, ReviewKind };
import type { TaskBaseline } from './reviewer/task-baseline.js';
import type { ChangedTests } from './reviewer/test-changes.js';

export type { Evidence, Usage };

/** A usage report: any of the fields of `Usage`. */
export type UsageReport = Partial<Usage>;

export interface Verdict {
  /** True when the work is done and the agent may stop. */
  completed: boolean;
  /** What the agent must do next (when not completed), or a short confirmation. */
  feedback: string;
  /** The verification commands the checker ran, with their exit codes (the claude reviewer's from its own stream). */
  evidence?: Evidence[];
  /** What kind of review the claude reviewer made (every one of its verdicts says it); see ReviewKind. */
  review?: ReviewKind;
  /** Every reviewer's own verdict, when the reviewers of the round did not all find the work complete (agreement.ts). */
  opinions?: Opinion[];
}

/** One reviewer's verdict within a round whose reviewers did not agree. */
export interface Opinion {
  checker: string;
  completed: boolean;
  feedback: string;
  /** What its verdict rests on, in one word and in words (verification.ts), when it reported evidence. */
  verification?: Verification;
  details?: string;
}

/** Everything a checker may look at. Built once per stop; treat it as read-only. */
export interface CheckContext {
  sessionId: string;
  /** The session transcript (JSONL), when known. */
  transcriptPath?: string;
  /** The project directory the agent works in. */
  cwd: string;
  /** The user's own prompts of this session, oldest first (never the supervisor's feedback). */
  userPrompts: string[];
  /** What the agent said last. */
  lastAssistantMessage: string;
  /**
   * The condition of Claude Code's session goal (`/goal <condition>`) when the current task has
   * one: part of the task, so a checker judges it too (Claude Code's own evaluator only reads the
   * conversation). Kept after that evaluator found it met, until the user's next prompt.
   */
  goal?: string;
  /**
   * The project when the current task began, when ccc recorded it (the claude checker's fresh
   * review shows the change since then): a git tree object, or a file list outside git.
   */
  taskBaseline?: TaskBaseline;
  /**
   * The files of the test suite the agent changed since the task began in a way that can make
   * tests pass without the work (an assertion removed or made trivial, a skip added, the runner's
   * configuration changed…), with the diff, when ccc could compare: the claude reviewer is shown
   * them to judge, and the round's passing runs are reported as resting on them.
   */
  changedTests?: ChangedTests;
  /** 1-based number of this review in the current task. */
  iteration: number;
  maxIterations: number;
  /** The completion marker (`[TASK_COMPLETED]` by default). */
  completionMarker: string;
  /** Per-checker time limit in seconds. */
  timeoutSeconds: number;
  /** The agent's stream-json frames seen so far in this process (may be empty in hook mode). */
  frames: readonly Frame[];
  /** Extra claude arguments the user gave (permissions, model), for checkers that run claude. */
  claudeArgs: readonly string[];
  /** The `claude` command to run. */
  claudeCommand: string;
  /** Environment for child processes (provider variables included). */
  env: NodeJS.ProcessEnv;
  logger: CheckerLogger;
  /**
   * What a model call of this check spent: tokens and cost, any of them (the rest count as 0),
   * e.g. `ctx.reportUsage?.({ cost_usd: 0.02 })`. Summed into the verdict, the summary and the cost cap.
   */
  reportUsage?(usage: UsageReport): void;
  /** @deprecated Use `reportUsage({ cost_usd })`; kept so that older plugins run. */
  reportCost?(usd: number): void;
}

export interface SessionInfo {
  sessionId?: string;
  cwd: string;
  logger: CheckerLogger;
}

export interface Checker {
  /** The name used in config, logs and events. */
  name: string;
  check(ctx: CheckContext, signal: AbortSignal): Promise<Verdict> | Verdict;
  onSessionStart?(info: SessionInfo): Promise<void> | void;
  onFrame?(frame: Frame): void;
  onSessionEnd?(info: SessionInfo): Promise<void> | void;
}

/**
 * A plugin module's default export in its older shape: a factory that receives the options
 * written next to `use` in config. `defineChecker({ name, create })` (define-checker.ts) is the
 * newer one: its name is known without calling it.
 */
export type CheckerFactory<Options = Record<string, unknown>> = (options: Options) => Checker;
