/**
 * The `rule` checker: deterministic checks that need no model. Rules on the agent's last message
 * (the completion marker, patterns that must or must not match) are checked first because they
 * are free; then the commands run in order in the project directory, and the first one that fails
 * ends the check (later commands usually build on earlier ones: build, then test). The feedback
 * lists every broken message rule and the failing command with its exit code, the lines of its
 * output that say what failed, and its output's tail.
 * Each command is evidence with the tests its output says ran (reviewer/run-evidence.ts).
 */
import { CccError } from '../errors.js';
import type { ChildRunner } from '../process/child-process.js';
import { commandEvidence } from './command-evidence.js';
import { failureLines } from './failure-lines.js';
import { parseRuleOptions, type RuleOptions } from './rule-options.js';
import { childTimeoutMs, runShellCommand, tailLines } from './shell-command.js';
import type { CheckContext, Checker, Evidence, Verdict } from './types.js';
import { childEndText } from '../process/child-end.js';

export function ruleChecker(raw: Record<string, unknown>, deps: { runner?: ChildRunner } = {}): Checker {
  const options = parseRuleOptions(raw);
  return {
    name: options.name,
    async check(ctx, signal) {
      const started = Date.now();
      const problems = messageProblems(options, ctx);
      const evidence: Evidence[] = [];
      const commandProblem = await firstFailingCommand(options, ctx, signal, started, evidence, deps.runner);
      if (commandProblem) problems.push(commandProblem);
      return { ...verdictFrom(options, problems), ...(evidence.length ? { evidence } : {}) };
    },
  };
}

function messageProblems(options: RuleOptions, ctx: CheckContext): string[] {
  const message = ctx.lastAssistantMessage;
  const problems: string[] = [];
  if (options.requireMarker && !hasMarkerLine(message, ctx.completionMarker)) {
    problems.push(
      `Your last message does not contain the completion marker ${ctx.completionMarker} on a line of its own. When the work is really done, end your message with it.`,
    );
  }
  for (const rule of options.mustMatch) {
    if (!rule.regex.test(message)) problems.push(`Your last message does not match ${rule.source} (rule must_match).`);
  }
  for (const rule of options.mustNotMatch) {
    const found = rule.regex.exec(message);
    if (found) problems.push(`Your last message matches ${rule.source} (rule must_not_match): "${found[0].slice(0, 200)}".`);
  }
  return problems;
}

export function hasMarkerLine(message: string, marker: string): boolean {
  return message.split(/\r?\n/).some((line) => line.trim() === marker);
}

async function firstFailingCommand(
  options: RuleOptions,
  ctx: CheckContext,
  signal: AbortSignal,
  started: number,
  evidence: Evidence[],
  runner?: ChildRunner,
): Promise<string | undefined> {
  for (const command of options.commands) {
    const timeoutMs = childTimeoutMs(ctx.timeoutSeconds, started);
    ctx.logger.debug('rule command started', { command });
    const result = await runShellCommand(command, { cwd: ctx.cwd, env: ctx.env, signal, timeoutMs, runner });
    ctx.logger.debug('rule command finished', { command, exit_code: result.exitCode, duration: result.durationMs });
    if (result.spawnError) {
      throw new CccError('CHECKER_FAILED', `rule command \`${command}\` could not start: ${result.spawnError.message}`, {
        data: { exit_code: null, stderr: result.output },
        cause: result.spawnError,
      });
    }
    if (result.aborted)
      throw new CccError('CHECKER_TIMEOUT', `rule command \`${command}\` was stopped (the check was cancelled)`, {
        data: { exit_code: null, stderr: result.output },
      });
    evidence.push(commandEvidence(command, result.timedOut ? null : result.exitCode, result.output, ctx.cwd));
    const shown = outputShown(result.output);
    if (result.timedOut) return `The command \`${command}\` did not finish within ${Math.round(timeoutMs / 1000)}s and was stopped.${shown}`;
    if (result.exitCode !== 0)
      return `The command \`${command}\` ${result.exitCode === null ? childEndText(result) : `failed with exit code ${result.exitCode}`}.${shown}`;
  }
  return undefined;
}

/**
 * A failing command's output for its feedback: the lines that say what failed first (a runner
 * prints them mid-output, where neither its first nor its last lines reach: failure-lines.ts), then
 * its last lines.
 */
function outputShown(output: string): string {
  const tail = tailLines(output);
  if (!tail) return ' It printed nothing.';
  const failures = failureLines(output);
  return `${failures.length ? `\nWhat failed:\n${failures.join('\n')}` : ''}\nLast lines of its output:\n${tail}`;
}

/** A rule command is the user's own: its exit code counts unless its output shows a runner that ran no test or failed (`# tests 0`). */
function verdictFrom(options: RuleOptions, problems: string[]): Verdict {
  if (problems.length > 0) return { completed: false, feedback: problems.join('\n\n') };
  const passed = [
    ...options.commands.map((c) => `\`${c}\` exited 0`),
    ...(options.requireMarker ? ['completion marker present'] : []),
    ...options.mustMatch.map((r) => `matches ${r.source}`),
    ...options.mustNotMatch.map((r) => `does not match ${r.source}`),
  ];
  return { completed: true, feedback: `all rules passed: ${passed.join('; ')}` };
}
