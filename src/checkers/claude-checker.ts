/**
 * The default checker: a forked Claude session (`--fork-session --resume <id>`) that sees the
 * whole conversation, can run commands itself, and answers with a structured verdict. The fork
 * leaves the user's session untouched; `CCC_SUPERVISOR_HOOK=1` keeps the reviewer's own Stop hook
 * from starting a review of the review.
 */
import { modelApiError } from '../claude/api-error.js';
import { runClaudePrint } from '../claude/claude-print.js';
import { CccError } from '../errors.js';
import { buildReviewMessage, reviewerArgs, VERDICT_SCHEMA } from './review-request.js';
import { loadSupervisorPrompt } from './supervisor-prompt.js';
import type { CheckContext, Checker, Verdict } from './types.js';
import { parseVerdict } from './verdict-parser.js';

export interface ClaudeCheckerOptions {
  /** Overrides `supervisor.prompt_path` for this checker. */
  prompt_path?: string;
  /** Default prompt path when the checker has none of its own. */
  defaultPromptPath: string;
  /** Attempts when the reviewer's answer cannot be parsed as a verdict. */
  attempts?: number;
}

export function claudeChecker(options: ClaudeCheckerOptions): Checker {
  return {
    name: 'claude',
    async check(ctx, signal) {
      const prompt = loadSupervisorPrompt({ cwd: ctx.cwd, promptPath: options.prompt_path ?? options.defaultPromptPath, home: ctx.env.HOME });
      const message = buildReviewMessage(prompt.text, ctx);
      const args = [
        '-p', '--fork-session', '--resume', ctx.sessionId, '--verbose', '--output-format', 'stream-json',
        '--json-schema', JSON.stringify(VERDICT_SCHEMA), ...reviewerArgs(ctx.claudeArgs),
      ];
      const attempts = Math.max(1, options.attempts ?? 2);
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const verdict = await reviewOnce(ctx, args, message, prompt.path, signal);
        if (verdict) return verdict;
        ctx.logger.warn('reviewer answer is not a verdict; asking again', { attempt: `${attempt}/${attempts}` });
      }
      throw new CccError('CHECKER_FAILED', `the claude reviewer answered ${attempts} times without a parseable verdict`, {
        data: { checker: 'claude' },
      });
    },
  };
}

// The message goes on stdin: options such as `--allowedTools` take several values and would
// swallow a positional prompt, and stdin has no length limit.
async function reviewOnce(ctx: CheckContext, args: string[], message: string, promptPath: string, signal: AbortSignal): Promise<Verdict | undefined> {
  ctx.logger.debug('calling the reviewer', { command: [ctx.claudeCommand, ...args].join(' '), prompt_path: promptPath });
  const result = await runClaudePrint({
    command: ctx.claudeCommand,
    args,
    stdin: message,
    cwd: ctx.cwd,
    env: { ...ctx.env, CCC_SUPERVISOR_HOOK: '1' },
    signal,
    logger: ctx.logger,
  });
  if (result.costUsd) ctx.reportCost?.(result.costUsd);
  if (result.spawnError) {
    throw new CccError('CLAUDE_NOT_FOUND', `cannot start the reviewer \`${ctx.claudeCommand}\`: ${result.spawnError.message}. Set CCC_CLAUDE or claude.command to the claude executable.`, {
      cause: result.spawnError,
    });
  }
  if (result.aborted || result.timedOut) {
    throw new CccError('CHECKER_TIMEOUT', `the claude reviewer did not answer within ${ctx.timeoutSeconds}s and was stopped`, {
      data: { exit_code: result.exitCode, signal: result.signal ?? null, stderr: result.stderrTail },
    });
  }
  if (result.exitCode !== 0) {
    const apiError = modelApiError(result);
    throw new CccError('CHECKER_FAILED', apiError ? `the reviewer could not reach the model: ${apiError}` : `the claude reviewer exited with code ${result.exitCode}`, {
      data: { exit_code: result.exitCode, stderr: result.stderrTail },
    });
  }
  return parseVerdict({ structuredOutput: result.structuredOutput, resultText: result.resultText, completionMarker: ctx.completionMarker });
}
