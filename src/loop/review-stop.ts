/**
 * One stop of the agent, decided: the same code for the interactive proxy, the headless loop and
 * the standalone Stop hook. It counts the iteration under the session lock, runs the checker
 * pipeline, applies the spending guards, and says whether the agent may stop or must continue
 * with the feedback. It never throws for a checker's failure: a broken checker lets the agent
 * stop (docs/design/stop-path.md, "`reviewStop`") and is logged at ERROR with its exit code and stderr.
 */
import { requireProjectDir } from './project-dir.js';
import type { CccConfig } from '../config/types.js';
import { runPipeline, type PipelineEntry } from '../checkers/pipeline.js';
import { refuseOverFailingRun } from '../checkers/own-evidence.js';
import { verificationDetails, verificationOf } from '../checkers/verification.js';
import type { CheckContext, CheckerLogger, Evidence, Verdict } from '../checkers/types.js';
import { addUsage, hasUsage, NO_USAGE, type Usage } from '../claude/usage.js';
import { errorText, isCccError } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { updateSessionState } from '../state/session-state.js';
import type { SessionState } from '../state/session-state-shape.js';
import type { StopEvent } from '../stop/stop-event.js';
import { event, TASK_CHARS, type EventSink, type StopReason } from './events.js';
import { clip } from '../value-text.js';
import { goalSendsAgentBack } from './goal-stop.js';
import { goalStopOptions, readContext } from './stop-context.js';
import type { TranscriptReadings } from './transcript-readings.js';
import type { StopGuard } from './stop-guard.js';
import { windDownMessage, windsDown, woundDownMessage } from './wind-down.js';
import { worthWaiting } from './limit-wait.js';
import { spendFields, type CostCaps } from './cost-cap.js';
import type { ModelFailureKind } from '../claude/api-error.js';
import { baselineOf, newestBaseline, type TaskBaseline } from '../checkers/reviewer/task-baseline.js';
import type { RunTask, RunTasks } from '../state/run-task.js';
import { passed } from '../checkers/evidence.js';
import { asStopReason, carriedInto, markStopRead, recordTaskEnd, roundUsd, sessionIdChanged, taskCostFrom } from '../sessions/task-state.js';

export type StopDecision =
  | {
      action: 'allow';
      reason: StopReason;
      message: string;
      iteration?: number;
      verdict?: Verdict;
      checker?: string;
      /** A checker failed because the model refused it on a limit (429, 529): worth waiting out and asking again. */
      modelLimited?: boolean;
    }
  | { action: 'block'; feedback: string; iteration: number; verdict: Verdict; checker: string }
  /**
   * A limit was reached (`reason`, said by `message`): the agent gets `feedback`, the wind-down
   * message, as one last unreviewed turn; the stop that ends it is allowed with the limit's reason.
   */
  | { action: 'wind-down'; reason: StopReason; message: string; feedback: string; iteration?: number };

export interface ReviewStopDeps {
  config: CccConfig;
  configDir: string;
  pipeline: readonly PipelineEntry[];
  logger: CheckerLogger;
  env: NodeJS.ProcessEnv;
  claudeArgs: readonly string[];
  frames?: readonly Frame[];
  /**
   * The agent's recent frames of `sessionId` (interactive: the live transcript tail), once it has
   * seen the `transcriptFrames` the transcript held at the stop. Used when `frames` is not given.
   */
  recentFrames?(sessionId: string, transcriptFrames: number): Promise<readonly Frame[]>;
  /** The user's prompts when ccc knows them (headless); otherwise read from the transcript. */
  userPrompts?: readonly string[];
  /**
   * Set when the caller knows whether this stop ends a turn the user started (headless: the run's
   * first turn is a new task, every later one answers a block). Otherwise the transcript decides.
   */
  newTask?: boolean;
  guards?: readonly StopGuard[];
  emit?: EventSink;
  /** Aborting it cancels the review in progress: no verdict is applied and the stop is allowed. */
  signal?: AbortSignal;
  /** The cost caps and the session's spend they count (the verdict event shows spent against cap). */
  caps?: CostCaps;
  /** Every model call a checker reports (the session sums them for the cost cap and the summary). */
  reportUsage?(usage: Usage): void;
  /**
   * The agent's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP when ccc started it (its own env does not hold it);
   * otherwise read from `env`, Claude Code's default 8 without it.
   */
  blockCap?: number;
  /** The project when the session's first task began (SessionCore.recordTaskStart), when ccc took it. */
  taskStart?: Promise<TaskBaseline | undefined>;
  /** Where the session's transcript reading stopped (stop-context.ts); without it a stop reads the whole transcript. */
  transcripts?: TranscriptReadings;
  /**
   * The run's own count of its task (src/state/run-task.ts): a stop the agent reached by going on
   * after a block, in another session than the stop before, continues that count. Without it the
   * count is the session state's alone.
   */
  run?: RunTasks;
}

/** Stops that end the task: the next prompt starts a new one from the project as it is then. */
const TASK_ENDS: ReadonlySet<StopReason> = new Set(['completed', 'limit', 'no-progress', 'permission-denied', 'cost-cap', 'checker-failed', 'interrupted']);

export async function reviewStop(stop: StopEvent, deps: ReviewStopDeps): Promise<StopDecision> {
  const decision = await decideStop(stop, deps);
  if (decision.action === 'allow' && TASK_ENDS.has(decision.reason) && !decision.modelLimited) await recordTaskEnd(stop, deps);
  return decision;
}

async function decideStop(stop: StopEvent, deps: ReviewStopDeps): Promise<StopDecision> {
  const { config, logger } = deps;
  const max = config.supervisor.max_iterations;
  if (stop.backgroundTasks.length > 0) {
    logger.info('background tasks still running; review deferred until they finish', {
      session_id: stop.sessionId,
      background_tasks: stop.backgroundTasks.length,
    });
    return { action: 'allow', reason: 'background-tasks', message: 'background tasks are still running' };
  }
  requireProjectDir(stop.cwd, stop.sessionId); // a review of a project that is gone could only fail, and blame the reviewer
  const read = await readContext(stop, deps);
  const prompts = deps.userPrompts ? [...deps.userPrompts] : read.userPrompts;
  const transcript = { ...read, promptCount: read.frames > 0 ? read.userPrompts.length : prompts.length };
  if (transcript.atHookStop && (await goalSendsAgentBack(transcript, goalStopOptions(read, deps)))) {
    logger.info('the /goal evaluator sends the agent back at this stop; review deferred to the stop it lets through', {
      session_id: stop.sessionId,
    });
    await markStopRead(stop, transcript.frames, deps);
    return { action: 'allow', reason: 'goal', message: 'the /goal evaluator sent the agent back; ccc reviews when the goal lets it stop' };
  }

  let limitReached = false;
  let disabled = false;
  let woundDown: { reason: string; message: string } | undefined;
  let fresh = false;
  const limitMessage = `the iteration limit (${max}) was reached without the checker confirming completion`;
  const windDown = config.supervisor.wind_down;
  const runTask = await deps.run?.read();
  // The agent went on after a block, yet its stop comes in another session: claude gave the session
  // a new id. The task is the same, and so is its count: the run's, not the new id's fresh state.
  const carried = stop.stopHookActive && runTask && runTask.sessionId !== stop.sessionId ? runTask : undefined;
  if (carried) sessionIdChanged(stop, carried, deps);
  const state = await updateSessionState(
    deps.configDir,
    stop.sessionId,
    (stored) => {
      const { wind_down: pending, ...s } = carried ? carriedInto(stored, carried) : stored;
      // The stop that ends the wind-down turn (the agent continued because of that message): the
      // run ends there, unreviewed. A new task typed instead clears it and is reviewed as usual.
      if (pending && stop.stopHookActive) {
        woundDown = pending;
        return { ...s, ...(transcript.frames > 0 ? { transcript_frames: transcript.frames } : {}) };
      }
      // A new task (the user typed again) starts the count afresh. A stop while the agent continues
      // because of our own block is never a new task, whatever the transcript shows at that moment.
      // `prompt_count` always counts the transcript's prompts when it was read, whoever wrote the
      // state (headless, interactive or the standalone hook): a session resumed in another mode
      // compares like with like.
      fresh = deps.newTask ?? (!stop.stopHookActive && s.prompt_count !== transcript.promptCount);
      const iteration = fresh ? 0 : s.iteration;
      disabled = s.enabled === false;
      limitReached = !disabled && iteration >= max;
      const next = disabled || limitReached ? iteration : iteration + 1;
      return {
        ...s,
        ...(fresh ? { task_cost_from_usd: taskCostFrom(s, deps) } : {}),
        iteration: next,
        max_iterations: max,
        prompt_count: transcript.promptCount,
        ...(transcript.frames > 0 ? { transcript_frames: transcript.frames } : {}),
        ...(limitReached && windDown ? { wind_down: { reason: 'limit', message: limitMessage } } : {}),
      };
    },
    { logger, maxIterations: max },
  );
  const iteration = state.iteration;
  const taskFrom = state.task_cost_from_usd ?? 0;
  const taskSessionId = carried?.taskSessionId ?? (!fresh && runTask?.sessionId === stop.sessionId ? runTask.taskSessionId : stop.sessionId);
  let runRecord: RunTask = {
    sessionId: stop.sessionId,
    taskSessionId,
    iteration,
    ...(state.task_cost_from_usd === undefined ? {} : { taskCostFromUsd: state.task_cost_from_usd }),
    ...(state.review_cost_usd === undefined ? {} : { reviewCostUsd: state.review_cost_usd }),
    ...(state.wind_down ? { windDown: state.wind_down } : {}),
    idChanges: carried ? carried.idChanges + 1 : fresh ? 0 : (runTask?.idChanges ?? 0),
  };
  const noteRun = (change: Partial<RunTask> = {}) => deps.run?.write((runRecord = { ...runRecord, ...change }));
  /** The session state after a change, with what the run carries of it. */
  const updateState = async (update: (s: SessionState) => SessionState) => {
    const updated = await updateSessionState(deps.configDir, stop.sessionId, update, { logger, maxIterations: max });
    await noteRun(updated.review_cost_usd === undefined ? {} : { reviewCostUsd: updated.review_cost_usd });
    return updated;
  };
  await noteRun();
  const fields = { session_id: stop.sessionId, iteration: `${iteration}/${max}`, max_iterations: max };
  if (woundDown) {
    const reason = asStopReason(woundDown.reason);
    logger.warn(`the agent's wind-down turn ended; stop allowed without review: ${woundDown.message}`, fields);
    return { action: 'allow', reason, message: woundDownMessage(woundDown.message), iteration };
  }
  if (disabled) {
    logger.info('supervision is off for this session; stop allowed', fields);
    return { action: 'allow', reason: 'disabled', message: 'supervision is off for this session' };
  }
  if (limitReached) {
    if (windDown) {
      logger.warn(`iteration limit reached (${max}); the agent is asked to write down where the work stands, then the stop is allowed`, fields);
      deps.emit?.(event({ kind: 'wind-down', reason: 'limit', message: limitMessage }));
      return { action: 'wind-down', reason: 'limit', message: limitMessage, feedback: windDownMessage(limitMessage), iteration };
    }
    logger.warn(`iteration limit reached (${max}); stop allowed without review`, fields);
    return { action: 'allow', reason: 'limit', message: limitMessage, iteration };
  }

  const started = Date.now();
  let usage: Usage = NO_USAGE;
  const reportUsage = (spent: Usage) => {
    usage = addUsage(usage, spent);
    deps.reportUsage?.(spent);
  };
  logger.info('review started', fields);
  // The task under review is the user's last prompt (interactive: read from the transcript).
  const task = prompts.at(-1)?.trim();
  const shownTask = task ? { task: clip(task, TASK_CHARS) } : {};
  deps.emit?.(event({ kind: 'iteration', n: iteration, max, ...shownTask }));
  deps.emit?.(event({ kind: 'phase', phase: 'review' }));
  const taskBaseline = newestBaseline(stop.cwd, baselineOf(state.task_baseline), await deps.taskStart);
  // The tests the agent weakened since then: the reviewer judges them, and the round's passing runs rest on them.
  // Loaded at the first review: nothing before the agent's first turn needs it.
  const changed = await (await import('../checkers/reviewer/test-changes.js')).changedTests(stop.cwd, { baseline: taskBaseline });
  if (changed?.weakened.length)
    logger.warn('the agent changed tests since the task began in a way that can make them pass without the work', {
      ...fields,
      changed_tests: changed.weakened.map((w) => `${w.file}: ${w.findings.join('; ')}`).join(' | '),
    });
  const ctx: CheckContext = {
    sessionId: stop.sessionId,
    transcriptPath: stop.transcriptPath,
    cwd: stop.cwd,
    userPrompts: prompts,
    lastAssistantMessage: stop.lastAssistantMessage ?? transcript.lastAssistantText,
    ...(transcript.goal ? { goal: transcript.goal.condition } : {}),
    ...(taskBaseline ? { taskBaseline } : {}),
    ...(changed?.weakened.length ? { changedTests: changed } : {}),
    iteration,
    maxIterations: max,
    completionMarker: config.supervisor.completion_marker,
    timeoutSeconds: config.supervisor.timeout_seconds,
    frames: deps.frames ?? (await deps.recentFrames?.(stop.sessionId, transcript.frames)) ?? [],
    claudeArgs: deps.claudeArgs,
    claudeCommand: config.claude.command,
    env: deps.env,
    logger,
    reportUsage,
  };

  let outcome;
  const roundEvidence: Evidence[][] = [];
  try {
    outcome = await runPipeline(deps.pipeline, ctx, {
      signal: deps.signal,
      listener: pipelineLogger(logger, fields, deps.emit, roundEvidence),
      agreement: config.supervisor.agreement,
    });
  } catch (error) {
    if (deps.signal?.aborted) {
      const why = typeof deps.signal.reason === 'string' ? deps.signal.reason : 'aborted';
      logger.info(`review cancelled (${why}); no verdict applied, stop allowed`, { ...fields, duration: ms(started), ...spent(usage) });
      deps.emit?.(event({ kind: 'stopped', reason: 'cancelled', message: 'review cancelled' }));
      return { action: 'allow', reason: 'cancelled', message: 'review cancelled', iteration };
    }
    // The project went away during the review: that is the run's ending, not the checker's failure.
    requireProjectDir(stop.cwd, stop.sessionId);
    const data = isCccError(error) ? error.data : {};
    const message = errorText(error);
    logger.error(`checker failed; stop allowed: ${message}`, {
      ...fields,
      exit_code: data.exit_code ?? null,
      signal: data.signal ?? null,
      stderr: data.stderr ?? '',
      duration: ms(started),
      ...spent(usage),
    });
    deps.emit?.(event({ kind: 'error', message, ...(hasUsage(usage) ? { usage } : {}) }));
    // What the failed review spent is spent: it counts toward the caps at the session's later stops too.
    const withCost = (s: SessionState): SessionState => (hasUsage(usage) ? { ...s, review_cost_usd: roundUsd((s.review_cost_usd ?? 0) + usage.cost_usd) } : s);
    if (worthWaiting(data.model_failure as ModelFailureKind | undefined)) {
      // The model refused the review on a limit: no review took place, so none is counted.
      await updateState((s) => withCost({ ...s, iteration: Math.max(0, s.iteration - 1) }));
      await noteRun({ iteration: Math.max(0, iteration - 1) });
      return { action: 'allow', reason: 'checker-failed', message, iteration: iteration - 1, modelLimited: true };
    }
    if (hasUsage(usage)) await updateState(withCost);
    return { action: 'allow', reason: 'checker-failed', message, iteration };
  }
  const { checker } = outcome;
  // The round's evidence: every checker's commands (a rule that ran the tests green counts for the reviewer after it).
  const weakened = changed?.weakened.map((w) => w.file) ?? [];
  const evidence = roundEvidence.length ? roundEvidence.flat().map((e) => (weakened.length && passed(e) ? { ...e, changed_tests: weakened } : e)) : undefined;
  // A complete over the round's own failing run is never accepted (checkers/own-evidence.ts).
  const withEvidence = refuseOverFailingRun(checker, { ...outcome.verdict, ...(evidence ? { evidence } : {}) }, logger);
  // Loaded only when it can apply: the stop's path loads no module it does not need (detection comes with it).
  const verdict = config.supervisor.reviewer.require_evidence
    ? (await import('../checkers/require-evidence.js')).requireEvidence(config, checker, stop.cwd, withEvidence, logger)
    : withEvidence;
  const details = verificationDetails(verdict.completed, evidence);
  const shown = evidence ? { evidence: details || 'none' } : {};
  const kind = verdict.review ? { review: verdict.review } : {};
  const spend = deps.caps ? spendFields(deps.caps, taskFrom) : {};
  logger.info('review finished', { ...fields, completed: verdict.completed, checker, ...kind, ...shown, duration: ms(started), ...spent(usage), ...spend });
  deps.emit?.(
    event({
      kind: 'verdict',
      checker,
      completed: verdict.completed,
      feedback: verdict.feedback,
      iteration,
      verification: verificationOf(verdict.completed, evidence),
      ...(details ? { verification_details: details } : {}),
      ...(evidence ? { evidence } : {}),
      ...kind,
      ...(verdict.opinions ? { opinions: verdict.opinions } : {}),
      ...(hasUsage(usage) ? { usage } : {}),
      ...shownTask,
      ...spend,
    }),
  );
  await updateState((s) => ({
    ...s,
    last_verdict: {
      checker,
      completed: verdict.completed,
      feedback: verdict.feedback,
      at: new Date().toISOString(),
      ...(hasUsage(usage) ? { cost_usd: usage.cost_usd } : {}),
      ...(evidence ? { evidence } : {}),
      ...kind,
      ...spend,
    },
    ...(hasUsage(usage) ? { review_cost_usd: roundUsd((s.review_cost_usd ?? 0) + usage.cost_usd) } : {}),
  }));
  if (verdict.completed) return { action: 'allow', reason: 'completed', message: verdict.feedback, iteration, verdict, checker };

  for (const guard of deps.guards ?? []) {
    const stopNow = await guard.afterVerdict({ sessionId: stop.sessionId, taskSessionId, cwd: stop.cwd, iteration, verdict, checker, taskCostFrom: taskFrom });
    if (stopNow && windDown && windsDown(stopNow.reason)) {
      logger.warn(`${guard.name}: ${stopNow.message}; the agent is asked to write down where the work stands, then the stop is allowed`, fields);
      await updateState((s) => ({ ...s, wind_down: { reason: stopNow.reason, message: stopNow.message } }));
      await noteRun({ windDown: { reason: stopNow.reason, message: stopNow.message } });
      deps.emit?.(event({ kind: 'wind-down', reason: stopNow.reason, message: stopNow.message }));
      return { action: 'wind-down', reason: stopNow.reason, message: stopNow.message, feedback: windDownMessage(stopNow.message), iteration };
    }
    if (stopNow) {
      logger.warn(`${guard.name}: ${stopNow.message}; stop allowed`, fields);
      return { action: 'allow', reason: stopNow.reason, message: stopNow.message, iteration, verdict, checker };
    }
  }
  return { action: 'block', feedback: verdict.feedback || 'The reviewer found the work incomplete.', iteration, verdict, checker };
}

function pipelineLogger(logger: CheckerLogger, fields: Record<string, unknown>, emit: EventSink | undefined, evidence: Evidence[][]) {
  return {
    onCheckerStart: (checker: string) => {
      logger.info('checker started', { ...fields, checker });
      emit?.(event({ kind: 'checker', checker, state: 'start' }));
    },
    onCheckerVerdict: (checker: string, verdict: Verdict, durationMs: number) => {
      if (verdict.evidence) evidence.push(verdict.evidence);
      logger.info('checker verdict', { ...fields, checker, completed: verdict.completed, duration: `${durationMs}ms`, feedback: verdict.feedback });
      emit?.(event({ kind: 'checker', checker, state: 'done', duration_ms: durationMs }));
    },
    onCheckerError: (checker: string, _error: unknown, durationMs: number) => {
      emit?.(event({ kind: 'checker', checker, state: 'error', duration_ms: durationMs }));
    },
  };
}

/** The usage fields of a log line, when a checker spent anything. */
function spent(usage: Usage): Partial<Usage> {
  return hasUsage(usage) ? usage : {};
}

function ms(since: number): string {
  return `${Date.now() - since}ms`;
}
