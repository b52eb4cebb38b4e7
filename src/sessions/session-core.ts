/**
 * What one supervised session shares between its parts, without its streams: the resolved config,
 * the checker pipeline, the session logger, the guards, the running cost, and the environment the
 * agent gets. The standalone Stop hook decides with this alone and so loads no RxJS (docs/design/architecture.md, "Start-up");
 * SupervisorSession (supervisor-session.ts) adds the event, frame and session-id streams.
 */
import { baselineStoresDir, moduleCacheDir } from '../state/paths.js';
import type { OwnReporters } from '../reporters/reporters.js';
import type { PipelineEntry } from '../checkers/pipeline.js';
import { addUsage, NO_USAGE, type Usage } from '../claude/usage.js';
import type { ResolvedConfig } from '../config/types.js';
import type { Frame } from '../frames/frame.js';
import type { SupervisorEvent } from '../loop/events.js';
import type { ReviewStopDeps } from '../loop/review-stop.js';
import { SessionLogger } from './session-logger.js';
import { supervisedAgentEnv } from '../loop/agent-env.js';
import { costCapGuard, type CostCaps } from '../loop/cost-cap.js';
import { roundUsd } from '../loop/spend-line.js';
import { noProgressGuard } from '../loop/no-progress.js';
import { fileProgressStore } from '../loop/progress-store.js';
import type { StopGuard } from '../loop/stop-guard.js';
import type { TaskBaseline } from '../checkers/reviewer/task-baseline.js';
import { logRunEnded, type RunEnding } from '../loop/run-ending.js';
import { InMemoryReadings, type TranscriptReadings } from '../loop/transcript-readings.js';
import { ReporterSet } from '../reporters/reporter.js';
import { memoryRunTasks, type RunTasks } from '../state/run-task.js';
import { errorText } from '../errors.js';

export interface SessionOptions {
  resolved: ResolvedConfig;
  pipeline: PipelineEntry[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  claudeArgs: string[];
  guards?: StopGuard[];
  stderrLogs?: boolean;
  /**
   * The agent's spend that comes from outside the frames: in an interactive session, what claude's
   * status line last reported (src/stop/status-line.ts). Headless counts the agent's result frames.
   */
  agentCost?: () => number;
  /** What earlier processes of the session spent: the standalone hook's reviews of earlier stops (the session state's `review_cost_usd`). */
  priorCost?: number;
  /** Where the session's transcript readings are kept between stops (default: in this process's memory). */
  transcripts?: (logger: SessionLogger) => TranscriptReadings;
  /** The run's record of its task (default: in this process's memory; the standalone hook keeps it per claude process). */
  runTasks?: RunTasks;
}

export class SessionCore {
  readonly config;
  readonly configDir;
  readonly cwd;
  readonly env;
  readonly claudeArgs;
  readonly pipeline;
  readonly logger: SessionLogger;
  /** The observer page, when `--observe` is on. */
  observerUrl?: string;
  /**
   * Aborted once, when the session ends (the agent exited): cancels a review still running and
   * ends every subscription that listens to it.
   */
  private readonly lifetime = new AbortController();
  readonly signal = this.lifetime.signal;
  /** What the checkers' model calls spent in this session (the reviewer's tokens and cost). */
  reviewUsage: Usage = NO_USAGE;
  /** Verdicts given in this session. */
  reviews = 0;
  /**
   * Everyone who hears of the session's events and frames (src/reporters/reporters.ts attaches
   * them); closed by the run with how it ended. A reporter that throws is logged, not fatal.
   */
  readonly reporters = new ReporterSet((error) => this.logger.warn(`a reporter failed: ${errorText(error)}`));
  private cost = 0;
  /** The spend when the run's wind-down turn (its last, unreviewed) began and ended. */
  private windDown?: { from: number; to?: number };
  private readonly agentCost: () => number;
  private readonly guards: StopGuard[];
  sessionId?: string;
  /** The project when the session's task began (taken by `recordTaskStart`). */
  private taskStart?: Promise<TaskBaseline | undefined>;
  /** Where each of the session's transcripts was read to: a stop reads only what is new (stop-context.ts). */
  readonly transcripts: TranscriptReadings;
  /** The run's count of its task, whatever session ids claude gives it (src/state/run-task.ts). */
  private readonly runTasks: RunTasks;

  constructor(options: SessionOptions) {
    this.config = options.resolved.config;
    this.configDir = options.resolved.configDir;
    this.cwd = options.cwd;
    this.env = options.env;
    this.claudeArgs = options.claudeArgs;
    this.pipeline = options.pipeline;
    this.agentCost = options.agentCost ?? (() => 0);
    this.cost = options.priorCost ?? 0;
    this.logger = new SessionLogger(this.configDir, this.config.supervisor.log_level, options.stderrLogs ?? false);
    this.transcripts = options.transcripts?.(this.logger) ?? new InMemoryReadings(this.logger);
    this.runTasks = options.runTasks ?? memoryRunTasks();
    this.guards = [
      ...(options.guards ?? []),
      noProgressGuard({ limit: this.config.supervisor.no_progress_limit, store: fileProgressStore(this.configDir, this.logger) }),
      costCapGuard(this.caps),
    ];
  }

  /** The cost caps and what they count: the agent's turns and every review of this run. */
  get caps(): CostCaps {
    return { spent: () => this.totalCost, capUsd: this.config.supervisor.max_cost_usd, taskCapUsd: this.config.supervisor.max_task_cost_usd };
  }

  /** What the reporters the config names need (src/reporters/reporters.ts); their warnings go to the log, and to `alsoWarn`. */
  ownReporters(alsoWarn?: (message: string) => void): OwnReporters {
    return {
      config: this.config,
      cwd: this.cwd,
      env: this.env,
      warn: (message) => {
        this.logger.warn(message);
        alsoWarn?.(message);
      },
      log: (message) => this.logger.info(message),
      moduleCacheDir: () => moduleCacheDir(this.configDir),
    };
  }

  setSessionId(id: string): void {
    if (this.sessionId === id) return;
    this.sessionId = id;
    this.logger.bind(id);
  }

  /** Counts the verdicts, notes where a wind-down began, and hands the event to the reporters. */
  emit(event: SupervisorEvent): void {
    if (event.kind === 'verdict') this.reviews += 1;
    this.noteWindDown(event);
    this.reporters.onEvent(event);
  }

  /** The agent's frame, to the reporters and then to each checker's `onFrame`. */
  onFrame(frame: Frame): void {
    this.reporters.onFrame(frame);
    for (const entry of this.pipeline) {
      try {
        entry.checker.onFrame?.(frame);
      } catch (error) {
        this.logger.warn(`checker "${entry.checker.name}" onFrame threw: ${errorText(error)}`);
      }
    }
  }

  addCost(usd: number): void {
    this.cost += usd;
  }

  /** The session's spend: the agent's turns and every review (docs/design/stop-path.md, "Spending guards"). */
  get totalCost(): number {
    return this.cost + this.agentCost();
  }

  /** The run's spend for its `end` event: in all, and on its wind-down turn when there was one. */
  endSpend(): { spent_usd: number; wind_down_usd?: number } {
    const spent = roundUsd(this.totalCost);
    const windDown = this.windDown && roundUsd(Math.max(0, (this.windDown.to ?? spent) - this.windDown.from));
    return { spent_usd: spent, ...(windDown === undefined ? {} : { wind_down_usd: windDown }) };
  }

  /**
   * The wind-down turn's spend runs from its `wind-down` event to the next sign that the turn is
   * over (the stop it ends with is answered: `stopped`, `phase`, `end`; interactive, the user may go
   * on working after it).
   */
  private noteWindDown(event: SupervisorEvent): void {
    if (event.kind === 'wind-down') this.windDown ??= { from: this.totalCost };
    else if (
      this.windDown &&
      this.windDown.to === undefined &&
      (event.kind === 'stopped' || event.kind === 'end' || (event.kind === 'phase' && event.phase !== 'agent'))
    )
      this.windDown.to = this.totalCost;
  }

  agentEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return supervisedAgentEnv(this.env, this.config.supervisor.max_iterations, extra);
  }

  /**
   * Takes the project as it is now as the start of the session's first task (a fresh review is
   * given the change since: checkers/reviewer/task-baseline.ts). Headless awaits it before the
   * agent's first turn; interactive takes it at launch, before the user has typed.
   */
  recordTaskStart(): Promise<unknown> {
    // Loaded here: the interactive start-up path loads nothing it does not need before the agent's spawn.
    this.taskStart = import('../checkers/reviewer/task-baseline.js').then(({ takeBaseline }) =>
      takeBaseline(this.cwd, { storesDir: baselineStoresDir(this.configDir) }),
    );
    return this.taskStart;
  }

  reviewDeps(): ReviewStopDeps {
    return {
      ...(this.taskStart ? { taskStart: this.taskStart } : {}),
      config: this.config,
      configDir: this.configDir,
      pipeline: this.pipeline,
      logger: this.logger,
      env: this.env,
      claudeArgs: this.claudeArgs,
      guards: this.guards,
      signal: this.signal,
      emit: (e) => this.emit(e),
      caps: this.caps,
      transcripts: this.transcripts,
      run: this.runTasks,
      reportUsage: (usage) => {
        this.addCost(usage.cost_usd);
        this.reviewUsage = addUsage(this.reviewUsage, usage);
      },
    };
  }

  async start(): Promise<void> {
    for (const entry of this.pipeline) await entry.checker.onSessionStart?.({ sessionId: this.sessionId, cwd: this.cwd, logger: this.logger });
  }

  /** Why the session was ended from outside (a signal), and the exit code that calls for. */
  interruption?: { message: string; exitCode: number };

  private ending?: RunEnding;

  /** How the run ended, logged by `close()` as the log's last line. The first word stands: what came after it is its consequence. */
  endedAs(ending: RunEnding): void {
    this.ending ??= ending;
  }

  /** The agent is gone: cancel what still runs for it. Idempotent; `close()` calls it too. */
  end(): void {
    if (!this.lifetime.signal.aborted) this.lifetime.abort('the agent exited');
  }

  /** Ended from outside: the agent's turn and the review in progress stop, and say `message`. */
  interrupt(message: string, exitCode: number): void {
    if (this.lifetime.signal.aborted) return;
    this.interruption = { message, exitCode };
    this.lifetime.abort(message);
  }

  async close(): Promise<void> {
    this.end();
    for (const entry of this.pipeline) {
      try {
        await entry.checker.onSessionEnd?.({ sessionId: this.sessionId, cwd: this.cwd, logger: this.logger });
      } catch (error) {
        this.logger.warn(`checker "${entry.checker.name}" onSessionEnd threw: ${errorText(error)}`);
      }
    }
    // Last, after everything the teardown may log.
    if (this.ending) logRunEnded(this.logger, this.ending);
  }
}
