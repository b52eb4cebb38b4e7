/**
 * One stop of the agent, decided: the same code for the interactive proxy, the headless loop and
 * the standalone Stop hook. It counts the iteration under the session lock, runs the checker
 * pipeline, applies the spending guards, and says whether the agent may stop or must continue
 * with the feedback. It never throws for a checker's failure: a broken checker lets the agent
 * stop (docs/stop-path.md, "`reviewStop`") and is logged at ERROR with its exit code and stderr.
 */
import type { CccConfig } from '../config/types.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { runPipeline, type PipelineEntry } from '../checkers/pipeline.js';
import { evidenceText } from '../checkers/evidence.js';
import { verificationOf } from '../checkers/verification.js';
import type { CheckContext, CheckerLogger, Evidence, Verdict } from '../checkers/types.js';
import { addUsage, hasUsage, NO_USAGE, type Usage } from '../claude/usage.js';
import { isCccError } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { readTranscript, type TranscriptSummary as Transcript } from '../frames/transcript.js';
import { readSessionState, updateSessionState } from '../state/session-state.js';
import type { StopEvent } from '../stop/stop-event.js';
import { event, type EventSink, type StopReason } from './events.js';
import type { StopGuard } from './stop-guard.js';

export type StopDecision =
  | { action: 'allow'; reason: StopReason; message: string; iteration?: number; verdict?: Verdict; checker?: string }
  | { action: 'block'; feedback: string; iteration: number; verdict: Verdict; checker: string };

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
  guards?: readonly StopGuard[];
  emit?: EventSink;
  /** Aborting it cancels the review in progress: no verdict is applied and the stop is allowed. */
  signal?: AbortSignal;
  /** Every model call a checker reports (the session sums them for the cost cap and the summary). */
  reportUsage?(usage: Usage): void;
}

export async function reviewStop(stop: StopEvent, deps: ReviewStopDeps): Promise<StopDecision> {
  const { config, logger } = deps;
  const max = config.supervisor.max_iterations;
  if (stop.backgroundTasks.length > 0) {
    logger.info('background tasks still running; review deferred until they finish', {
      session_id: stop.sessionId,
      background_tasks: stop.backgroundTasks.length,
    });
    return { action: 'allow', reason: 'background-tasks', message: 'background tasks are still running' };
  }
  const transcript = await readContext(stop, deps);
  const prompts = deps.userPrompts ? [...deps.userPrompts] : transcript.userPrompts;

  let limitReached = false;
  let disabled = false;
  const state = await updateSessionState(
    deps.configDir,
    stop.sessionId,
    (s) => {
      // A new task (the user typed again) starts the count afresh. A stop while the agent continues
      // because of our own block is never a new task, whatever the transcript shows at that moment.
      const fresh = !stop.stopHookActive && s.prompt_count !== prompts.length;
      const iteration = fresh ? 0 : s.iteration;
      disabled = s.enabled === false;
      limitReached = !disabled && iteration >= max;
      const next = disabled || limitReached ? iteration : iteration + 1;
      return {
        ...s,
        iteration: next,
        max_iterations: max,
        prompt_count: prompts.length,
        ...(transcript.frames > 0 ? { transcript_frames: transcript.frames } : {}),
      };
    },
    { logger, maxIterations: max },
  );
  const iteration = state.iteration;
  const fields = { session_id: stop.sessionId, iteration: `${iteration}/${max}`, max_iterations: max };
  if (disabled) {
    logger.info('supervision is off for this session; stop allowed', fields);
    return { action: 'allow', reason: 'disabled', message: 'supervision is off for this session' };
  }
  if (limitReached) {
    logger.warn(`iteration limit reached (${max}); stop allowed without review`, fields);
    return { action: 'allow', reason: 'limit', message: `the iteration limit (${max}) was reached without the checker confirming completion`, iteration };
  }

  const started = Date.now();
  let usage: Usage = NO_USAGE;
  const reportUsage = (spent: Usage) => {
    usage = addUsage(usage, spent);
    deps.reportUsage?.(spent);
  };
  logger.info('review started', fields);
  deps.emit?.(event({ kind: 'iteration', n: iteration, max }));
  deps.emit?.(event({ kind: 'phase', phase: 'review' }));
  const ctx: CheckContext = {
    sessionId: stop.sessionId,
    transcriptPath: stop.transcriptPath,
    cwd: stop.cwd,
    userPrompts: prompts,
    lastAssistantMessage: stop.lastAssistantMessage ?? transcript.lastAssistantText,
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
    outcome = await runPipeline(deps.pipeline, ctx, { signal: deps.signal, listener: pipelineLogger(logger, fields, deps.emit, roundEvidence) });
  } catch (error) {
    if (deps.signal?.aborted) {
      const why = typeof deps.signal.reason === 'string' ? deps.signal.reason : 'aborted';
      logger.info(`review cancelled (${why}); no verdict applied, stop allowed`, { ...fields, duration: ms(started), ...spent(usage) });
      deps.emit?.(event({ kind: 'stopped', reason: 'cancelled', message: 'review cancelled' }));
      return { action: 'allow', reason: 'cancelled', message: 'review cancelled', iteration };
    }
    const data = isCccError(error) ? error.data : {};
    const message = error instanceof Error ? error.message : String(error);
    logger.error(`checker failed; stop allowed: ${message}`, {
      ...fields,
      exit_code: data.exit_code ?? null,
      signal: data.signal ?? null,
      stderr: data.stderr ?? '',
      duration: ms(started),
      ...spent(usage),
    });
    deps.emit?.(event({ kind: 'error', message }));
    return { action: 'allow', reason: 'checker-failed', message, iteration };
  }
  const { checker } = outcome;
  // The round's evidence: every checker's commands (a rule that ran the tests green counts for the reviewer after it).
  const evidence = roundEvidence.length ? roundEvidence.flat() : undefined;
  const withEvidence = { ...outcome.verdict, ...(evidence ? { evidence } : {}) };
  // Loaded only when it can apply: the stop's path loads no module it does not need (detection comes with it).
  const verdict = config.supervisor.reviewer.require_evidence
    ? (await import('../checkers/require-evidence.js')).requireEvidence(config, checker, stop.cwd, withEvidence, logger)
    : withEvidence;
  const shown = evidence ? { evidence: evidenceText(evidence, verdict.completed) || 'none' } : {};
  logger.info('review finished', { ...fields, completed: verdict.completed, checker, ...shown, duration: ms(started), ...spent(usage) });
  deps.emit?.(
    event({
      kind: 'verdict',
      checker,
      completed: verdict.completed,
      feedback: verdict.feedback,
      iteration,
      verification: verificationOf(verdict.completed, evidence),
      ...(evidence ? { evidence } : {}),
      ...(hasUsage(usage) ? { usage } : {}),
    }),
  );
  await updateSessionState(
    deps.configDir,
    stop.sessionId,
    (s) => ({
      ...s,
      last_verdict: {
        checker,
        completed: verdict.completed,
        feedback: verdict.feedback,
        at: new Date().toISOString(),
        ...(hasUsage(usage) ? { cost_usd: usage.cost_usd } : {}),
        ...(evidence ? { evidence } : {}),
      },
    }),
    { logger, maxIterations: max },
  );
  if (verdict.completed) return { action: 'allow', reason: 'completed', message: verdict.feedback, iteration, verdict, checker };

  for (const guard of deps.guards ?? []) {
    const stopNow = await guard.afterVerdict({ sessionId: stop.sessionId, cwd: stop.cwd, iteration, verdict, checker });
    if (stopNow) {
      logger.warn(`${guard.name}: ${stopNow.message}; stop allowed`, fields);
      return { action: 'allow', reason: stopNow.reason, message: stopNow.message, iteration, verdict, checker };
    }
  }
  return { action: 'block', feedback: verdict.feedback || 'The reviewer found the work incomplete.', iteration, verdict, checker };
}

const TRANSCRIPT_RETRIES = 80;
const TRANSCRIPT_RETRY_MS = 25;
const FLUSH_WAIT_MS = 400;

async function readContext(stop: StopEvent, deps: ReviewStopDeps): Promise<{ userPrompts: string[]; lastAssistantText: string; frames: number }> {
  if (!stop.transcriptPath || (deps.userPrompts && stop.lastAssistantMessage !== undefined)) return { userPrompts: [], lastAssistantText: '', frames: 0 };
  try {
    // Claude Code may not have flushed the turn to the transcript when the hook fires (seen on a
    // loaded machine, and on most stops with a hook that asks within a few ms): a transcript
    // without the user's prompt, or with no assistant line after the lines read at the last
    // review (every stop follows one; what Claude Code adds after a stop is not one), is read
    // again, briefly. Counted from a stale one, a new task would not start the count afresh.
    // Claude Code flushes within a few ms; a stop with no new assistant line at all (the same stop
    // twice) waits FLUSH_WAIT_MS at most.
    const seen = (await readSessionState(deps.configDir, stop.sessionId))?.transcript_frames ?? 0;
    const started = Date.now();
    const caughtUp = (t: Transcript) => t.userPrompts.length > 0 && (t.framesToLastAssistant > seen || Date.now() - started >= FLUSH_WAIT_MS);
    let t = await readTranscript(stop.transcriptPath, { logger: deps.logger });
    for (let attempt = 0; attempt < TRANSCRIPT_RETRIES && !caughtUp(t); attempt++) {
      await sleep(TRANSCRIPT_RETRY_MS);
      t = await readTranscript(stop.transcriptPath, { logger: deps.logger });
    }
    return { userPrompts: t.userPrompts, lastAssistantText: t.lastAssistantText, frames: t.frames };
  } catch (error) {
    deps.logger.warn(`cannot read the transcript: ${(error as Error).message}`, { session_id: stop.sessionId, transcript_path: stop.transcriptPath });
    return { userPrompts: [], lastAssistantText: '', frames: 0 };
  }
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
