/**
 * The default checker: a forked Claude session (`--fork-session --resume <id>`) that sees the
 * whole conversation, verifies the work with tools (reads, the project's tests, read-only git),
 * and ends its answer with a verdict object. The fork leaves the user's session untouched;
 * `CCC_SUPERVISOR_HOOK=1` keeps the reviewer's own Stop hook from starting a review of the review.
 *
 * Its request is the agent's last request plus the review message, so the conversation is read
 * from the prompt cache (see reviewer/reviewer-launch.ts). An answer without a verdict is asked
 * again in a new fork of the same session, whose message is the review message, the first
 * answer and a reminder: the conversation is a cached read again, and the reviewer keeps what it
 * found. (The fork is not saved, so it cannot be continued; see reviewer-launch.ts.) The verdict
 * carries the verification commands the reviewer ran, from its own stream (its evidence).
 *
 * Every verdict says what kind of review it was (`ReviewKind`): `forked`; `compacted` when the fork
 * was over the model's window and claude summarized it and sent the review again (its
 * `compact_boundary` frame, docs/design/claude-facts.md), so the reviewer saw the conversation only as
 * summarized; `fresh` when even that failed and a new session with the same guard and evidence
 * rules was given the task, the agent's last message and the change (reviewer/project-change.ts).
 */
import { modelFailure, modelFailureSentence } from '../claude/api-error.js';
import { runClaudePrint, type ClaudePrintResult } from '../claude/claude-print.js';
import { CccError, isCccError } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { projectFiles } from '../init/project-files.js';
import { detectTestCommands } from '../init/test-command.js';
import { buildFreshReviewMessage, buildReviewMessage, retryMessage, type ReviewRules } from './review-request.js';
import { evidenceCollector, type EvidenceCollector } from './reviewer/evidence-frames.js';
import { projectChange } from './reviewer/project-change.js';
import { reviewerAnswer } from './reviewer/reviewer-answer.js';
import { guardLoads } from './reviewer/guard-check.js';
import { guardWatch, UNGUARDED_MESSAGE } from './reviewer/guard-probe.js';
import { inheritedArgs, reviewerLaunch, type ReviewerLaunch } from './reviewer/reviewer-launch.js';
import { reviewerPolicy, type ReviewerPolicy } from './reviewer/reviewer-policy.js';
import { loadSupervisorPrompt, type PromptPath } from './supervisor-prompt.js';
import type { CheckContext, Checker, Verdict } from './types.js';
import { parseVerdict } from './verdict-parser.js';
import { childEndText } from '../process/child-end.js';
import { isOutOfDescriptors } from '../process/open-file-limit.js';

export interface ClaudeCheckerOptions {
  /** The checker's own `prompt_path`, else `supervisor.prompt_path` (supervisor-prompt.ts, `promptPathFor`). */
  promptPath: PromptPath;
  /** `trusted_dirs`. */
  trusted?: readonly string[];
  /** Attempts when the reviewer's answer cannot be parsed as a verdict. */
  attempts?: number;
  /** `supervisor.reviewer.allow`: permission rules beyond reading and verifying. */
  allow?: readonly string[];
  /** The commands of the pipeline's `rule` checkers: the reviewer may run them too. */
  ruleCommands?: readonly string[];
  /** `supervisor.reviewer.model`. */
  model?: string;
  /** `supervisor.reviewer.require_evidence`: with `'whole-suite'` the reviewer is told to run the whole suite. */
  requireEvidence?: boolean | 'whole-suite';
}

export function claudeChecker(options: ClaudeCheckerOptions): Checker {
  return {
    name: 'claude',
    async check(ctx, signal) {
      const prompt = loadSupervisorPrompt({ cwd: ctx.cwd, promptPath: options.promptPath, trusted: options.trusted, home: ctx.env.HOME });
      const tests = detectTestCommands(ctx.cwd);
      const policy = reviewerPolicy({ root: ctx.cwd, tests, ruleCommands: options.ruleCommands ?? [], allow: options.allow ?? [] });
      const rules: ReviewRules = options.requireEvidence === 'whole-suite' ? { wholeSuite: { commands: tests.map((t) => t.command) } } : {};
      const evidence = evidenceCollector({ policy, files: projectFiles(ctx.cwd) });
      let compacted = false;
      const onFrame = (frame: Frame) => {
        if (frame.type === 'system' && frame.subtype === 'compact_boundary') compacted = true;
      };
      await requireGuard(ctx, options, policy, signal);
      const review = (fork: string | undefined, request: string) =>
        reviewRounds({ ctx, options, policy, evidence, fork, request, promptPath: prompt.path, signal, onFrame });
      try {
        const verdict = await review(ctx.sessionId, buildReviewMessage(prompt.text, ctx, policy, rules));
        return { ...verdict, review: compacted ? 'compacted' : 'forked' };
      } catch (error) {
        if (!isCccError(error, 'CHECKER_FAILED') || error.data.model_failure !== 'context-full') throw error;
        // claude already compacted the fork and sent it again (docs/design/claude-facts.md): the conversation
        // does not fit even summarized. A new session given the task and the change still fits.
        ctx.logger.warn(
          "the forked review does not fit the model's window even compacted; reviewing afresh: the task, the agent's last message and the change",
          {
            reason: error.message,
          },
        );
        const change = await projectChange(ctx.cwd, { baseline: ctx.taskBaseline });
        return { ...(await review(undefined, buildFreshReviewMessage(prompt.text, ctx, policy, change, rules)).catch(freshOverWindow)), review: 'fresh' };
      }
    },
  };
}

/**
 * No reviewer starts until claude is seen loading its guard, in a run that can neither reach a
 * model nor call a tool (reviewer/guard-check.ts).
 */
async function requireGuard(ctx: CheckContext, options: ClaudeCheckerOptions, policy: ReviewerPolicy, signal: AbortSignal): Promise<void> {
  const launch = reviewerLaunch({ claudeArgs: ctx.claudeArgs, cwd: ctx.cwd, env: ctx.env, policy, model: options.model });
  const key = JSON.stringify([ctx.claudeCommand, inheritedArgs(ctx.claudeArgs), ctx.cwd, ctx.env.HOME, ctx.env.CLAUDE_CONFIG_DIR]);
  const state = await guardLoads(key, { command: ctx.claudeCommand, launch, cwd: ctx.cwd, signal, logger: ctx.logger });
  if (state === 'missing') throw unguarded();
}

function unguarded(): CccError {
  return new CccError('CHECKER_FAILED', UNGUARDED_MESSAGE, { data: { checker: 'claude', cause: 'guard_missing' } });
}

/** A fresh review over the window too: said as that, since compacting the session would not help it. */
function freshOverWindow(error: unknown): never {
  if (!isCccError(error, 'CHECKER_FAILED') || error.data.model_failure !== 'context-full') throw error;
  throw new CccError(
    'CHECKER_FAILED',
    `the review does not fit the model's context window, neither forked nor fresh (given only the task, the agent's last message and the change): ${String(error.data.model_error)}`,
    { data: error.data, cause: error },
  );
}

interface ReviewRounds {
  ctx: CheckContext;
  options: ClaudeCheckerOptions;
  policy: ReviewerPolicy;
  evidence: EvidenceCollector;
  /** The session to fork, or none for a fresh reviewer. */
  fork: string | undefined;
  request: string;
  promptPath: string;
  signal: AbortSignal;
  /** Every frame of the reviewer's stream, each attempt's. */
  onFrame: (frame: Frame) => void;
}

/** One review: the reviewer is asked until it answers a verdict, `options.attempts` times at most. */
async function reviewRounds({ ctx, options, policy, evidence, fork, request, promptPath, signal, onFrame: seen }: ReviewRounds): Promise<Verdict> {
  const attempts = Math.max(1, options.attempts ?? 2);
  let message = request;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const launch = reviewerLaunch({
      fork,
      claudeArgs: ctx.claudeArgs,
      cwd: ctx.cwd,
      env: ctx.env,
      policy,
      model: options.model,
      sessionHasGoal: ctx.goal !== undefined,
    });
    ctx.logger.debug('calling the reviewer', { command: [ctx.claudeCommand, ...launch.args].join(' '), prompt_path: promptPath, attempt });
    const answer = reviewerAnswer();
    const onFrame = (frame: Frame) => {
      seen(frame);
      answer.onFrame(frame);
      evidence.onFrame(frame);
    };
    const text = answer.text(await runReviewer(ctx, launch, message, signal, onFrame));
    const verdict = parseVerdict({ resultText: text, completionMarker: ctx.completionMarker });
    if (verdict) return { ...verdict, evidence: evidence.evidence() };
    const next = attempt < attempts ? 'asking again' : 'no attempt left';
    ctx.logger.warn(`reviewer answer is not a verdict; ${next}`, { attempt: `${attempt}/${attempts}` });
    message = retryMessage(request, text ?? '');
  }
  throw new CccError('CHECKER_FAILED', `the claude reviewer answered ${attempts} times without a parseable verdict`, {
    data: { checker: 'claude' },
  });
}

// The message goes on stdin: options such as `--add-dir` take several values and would swallow a
// positional prompt, and stdin has no length limit.
// The guard was seen loading before (requireGuard); should claude drop it now all the same (settings
// changed during the run), the review is killed at its init frame (reviewer/guard-probe.ts).
async function runReviewer(
  ctx: CheckContext,
  launch: ReviewerLaunch,
  message: string,
  signal: AbortSignal,
  onFrame: (frame: Frame) => void,
): Promise<ClaudePrintResult> {
  const guard = guardWatch(launch.guardNonce);
  const halt = new AbortController();
  const watched = (frame: Frame) => {
    if (guard.onFrame(frame) === 'missing') halt.abort();
    else onFrame(frame);
  };
  const result = await runClaudePrint({
    command: ctx.claudeCommand,
    args: launch.args,
    stdin: message,
    cwd: ctx.cwd,
    env: launch.env,
    signal,
    halt: halt.signal,
    logger: ctx.logger,
    onFrame: watched,
  });
  ctx.reportUsage?.(result.usage);
  if (guard.state() === 'missing') throw unguarded();
  if (result.spawnError && isOutOfDescriptors(result.spawnError)) {
    throw new CccError('CHECKER_FAILED', `cannot start the reviewer: ${result.spawnError.message}`, { data: { checker: 'claude' }, cause: result.spawnError });
  }
  if (result.spawnError) {
    throw new CccError(
      'CLAUDE_NOT_FOUND',
      `cannot start the reviewer \`${ctx.claudeCommand}\`: ${result.spawnError.message}. Set CCC_CLAUDE or claude.command to the claude executable.`,
      {
        cause: result.spawnError,
      },
    );
  }
  if (result.aborted || result.timedOut) {
    throw new CccError('CHECKER_TIMEOUT', `the claude reviewer did not answer within ${ctx.timeoutSeconds}s and was stopped`, {
      data: { exit_code: result.exitCode, signal: result.signal ?? null, stderr: result.stderrTail },
    });
  }
  if (result.exitCode !== 0) {
    const failure = modelFailure(result);
    throw new CccError('CHECKER_FAILED', failure ? modelFailureSentence('reviewer', failure) : `the claude reviewer ${childEndText(result)}`, {
      data: {
        exit_code: result.exitCode,
        signal: result.signal ?? null,
        stderr: result.stderrTail,
        ...(failure ? { model_failure: failure.kind, model_error: failure.text } : {}),
      },
    });
  }
  return result;
}
