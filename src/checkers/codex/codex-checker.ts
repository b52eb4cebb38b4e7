/**
 * The `codex` checker: a second opinion from another vendor's agent. Each review is a new, unsaved
 * `codex exec` session (codex-launch.ts) given what a fresh claude review is given (the user's
 * prompts, the agent's last message, the change since the task began, SUPERVISOR.md), in codex's
 * kernel sandbox: read-only in the project, or writable in a throwaway copy
 * (`supervisor.codex.workspace`). Its verdict comes through an output schema; the commands it ran
 * become evidence by the claude reviewer's rules (codex-evidence.ts); its tokens, and its cost
 * when the user gave prices, are reported as a review's (codex-usage.ts).
 *
 * It fails, never answers, when the review did not take place: codex could not start, its
 * sandbox does not work here (probed once per process, codex-sandbox.ts, and seen in the review's
 * own commands), the model refused it (a rate limit or an overload is marked so that the loop
 * waits it out as for claude, loop/limit-wait.ts), or it ran out of time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { modelFailureSentence } from '../../claude/api-error.js';
import { CccError } from '../../errors.js';
import { projectFiles } from '../../init/project-files.js';
import { detectTestCommands } from '../../init/test-command.js';
import { buildIndependentReviewMessage, type ReviewRules } from '../review-request.js';
import { projectChange } from '../reviewer/project-change.js';
import { reviewerPolicy } from '../reviewer/reviewer-policy.js';
import { loadSupervisorPrompt, type PromptPath } from '../supervisor-prompt.js';
import type { CheckContext, Checker, Verdict } from '../types.js';
import { parseVerdict } from '../verdict-parser.js';
import { codexEvidence } from './codex-evidence.js';
import type { CodexTurn } from './codex-events.js';
import { codexModelFailure } from './codex-failure.js';
import { codexLaunch, type CodexSettings } from './codex-launch.js';
import { runCodex } from './codex-run.js';
import { probeSandbox, type SandboxState } from './codex-sandbox.js';
import { codexUsage } from './codex-usage.js';
import { throwawayCopy, type Workspace } from './codex-workspace.js';
import type { RunResult } from '../../process/child-process.js';

export interface CodexCheckerOptions {
  /** The checker's own `prompt_path`, else `supervisor.prompt_path` (supervisor-prompt.ts, `promptPathFor`). */
  promptPath: PromptPath;
  /** Places outside the project a prompt file may resolve to (`trusted_dirs`). */
  trusted?: readonly string[];
  codex: CodexSettings;
  /** `supervisor.reviewer.allow` and the rule checkers' commands: what counts as verification, as for claude. */
  allow?: readonly string[];
  ruleCommands?: readonly string[];
  /** `supervisor.reviewer.require_evidence`: the reviewer is told what ccc will accept, as claude's is. */
  requireEvidence?: boolean | 'whole-suite';
}

/** The verdict codex must answer with (`--output-schema`): strict, as the Responses API requires. */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: { completed: { type: 'boolean' }, feedback: { type: 'string' } },
  required: ['completed', 'feedback'],
  additionalProperties: false,
};

export function codexChecker(options: CodexCheckerOptions): Checker {
  const settings = options.codex;
  let sandbox: Promise<SandboxState> | undefined;
  return {
    name: 'codex',
    async check(ctx, signal) {
      const prompt = loadSupervisorPrompt({ cwd: ctx.cwd, promptPath: options.promptPath, trusted: options.trusted, home: ctx.env.HOME });
      if (!settings.unsandboxed) {
        sandbox ??= probeSandbox({ command: settings.command, env: ctx.env });
        const state = await sandbox;
        if (!state.works) throw sandboxError(state.why);
      }
      const tests = detectTestCommands(ctx.cwd);
      const policy = reviewerPolicy({
        root: ctx.cwd,
        tests,
        ruleCommands: options.ruleCommands ?? [],
        allow: options.allow ?? [],
      });
      const change = await projectChange(ctx.cwd, { baseline: ctx.taskBaseline });
      const workspace = settings.workspace === 'copy' || settings.unsandboxed ? await throwawayCopy(ctx.cwd) : undefined;
      const schemaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-codex-schema-'));
      try {
        const schemaFile = path.join(schemaDir, 'verdict.schema.json');
        await fs.writeFile(schemaFile, JSON.stringify(VERDICT_SCHEMA));
        const launch = codexLaunch({
          settings,
          dir: workspace?.dir ?? ctx.cwd,
          schemaFile,
          env: ctx.env,
          ...(workspace ? { scratch: workspace.scratch } : {}),
        });
        const rules: ReviewRules = options.requireEvidence === 'whole-suite' ? { wholeSuite: { commands: tests.map((t) => t.command) } } : {};
        const message = buildIndependentReviewMessage(prompt.text, ctx, change, whereText(settings, workspace), rules);
        ctx.logger.debug('calling the codex reviewer', { command: [settings.command, ...launch.args].join(' '), prompt_path: prompt.path });
        const { run, turn } = await runCodex({
          command: settings.command,
          args: launch.args,
          cwd: workspace?.dir ?? ctx.cwd,
          env: launch.env,
          stdin: message,
          signal,
          logger: ctx.logger,
        });
        if (turn.tokens) ctx.reportUsage?.(codexUsage(turn.tokens, settings.price));
        return verdictOf(ctx, run, turn, policy);
      } finally {
        await fs.rm(schemaDir, { recursive: true, force: true });
        await workspace?.dispose();
      }
    },
  };
}

function verdictOf(ctx: CheckContext, run: RunResult, turn: CodexTurn, policy: ReturnType<typeof reviewerPolicy>): Verdict {
  if (run.spawnError) {
    throw new CccError(
      'CHECKER_FAILED',
      `cannot start the codex reviewer: ${run.spawnError.message}. Install it (npm install -g @openai/codex) or set supervisor.codex.command (CCC_CODEX).`,
      {
        data: { checker: 'codex' },
        cause: run.spawnError,
      },
    );
  }
  if (run.aborted || run.timedOut) {
    throw new CccError('CHECKER_TIMEOUT', `the codex reviewer did not answer within ${ctx.timeoutSeconds}s and was stopped`, {
      data: { exit_code: run.exitCode, signal: run.signal ?? null, stderr: run.stderrTail },
    });
  }
  if (turn.sandboxFailure) throw sandboxError(turn.sandboxFailure);
  if (turn.failure !== undefined) {
    const failure = codexModelFailure(turn.failure);
    throw new CccError(
      'CHECKER_FAILED',
      failure ? modelFailureSentence('reviewer', failure).replace('the reviewer', 'the codex reviewer') : `the codex reviewer failed: ${turn.failure}`,
      {
        data: { exit_code: run.exitCode, stderr: run.stderrTail, ...(failure ? { model_failure: failure.kind, model_error: failure.text } : {}) },
      },
    );
  }
  if (run.exitCode !== 0) {
    throw new CccError('CHECKER_FAILED', `the codex reviewer exited with code ${run.exitCode}`, { data: { exit_code: run.exitCode, stderr: run.stderrTail } });
  }
  const verdict = parseVerdict({ resultText: turn.answer, completionMarker: ctx.completionMarker });
  if (!verdict) throw new CccError('CHECKER_FAILED', 'the codex reviewer answered without a verdict', { data: { checker: 'codex' } });
  return { completed: verdict.completed, feedback: verdict.feedback, evidence: codexEvidence({ policy, files: projectFiles(ctx.cwd) }, turn.commands) };
}

function sandboxError(why: string): CccError {
  return new CccError(
    'CHECKER_FAILED',
    `codex's sandbox does not work on this machine (${why}), so ccc does not run the codex reviewer: without it the review's commands could change the project. ` +
      'Allow unprivileged user namespaces (bubblewrap needs them), or set supervisor.codex.unsandboxed: true to review without a sandbox in a throwaway copy.',
    { data: { checker: 'codex', cause: 'sandbox' } },
  );
}

function whereText(settings: CodexSettings, workspace: Workspace | undefined): string {
  if (!workspace) {
    return 'You run in a read-only sandbox: nothing can be written, in the project or anywhere else (the temporary directory and caches included). A runner that fails only because it cannot write (a cache, a build directory) failed for that reason, not because of the work: say so rather than count it against the work.';
  }
  return settings.unsandboxed
    ? 'You run in a throwaway copy of the project, without a sandbox: work only inside the current directory; its writes are discarded after the review.'
    : 'You run in a throwaway copy of the project: the runners may write in it (its writes are discarded after the review); the project itself cannot be changed.';
}
