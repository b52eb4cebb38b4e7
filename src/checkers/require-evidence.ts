/**
 * `supervisor.reviewer.require_evidence: true`: the reviewer's `complete` counts only when a
 * verification command ran tests that passed during the round (evidence.ts, `passed`). Otherwise the agent is told the work could not
 * be verified and which command would verify it, and the loop goes on within its limits.
 */
import type { CccConfig } from '../config/types.js';
import { detectTestCommands } from '../init/test-command.js';
import { passingCommands } from './evidence.js';
import { ruleCommandsOf } from './rule-commands.js';
import type { CheckerLogger, Verdict } from './types.js';

export function requireEvidence(config: CccConfig, checker: string, cwd: string, verdict: Verdict, logger: CheckerLogger): Verdict {
  if (!config.supervisor.reviewer.require_evidence || (checker !== 'claude' && checker !== 'codex') || !verdict.completed) return verdict;
  const evidence = verdict.evidence ?? [];
  if (passingCommands(evidence).length > 0) return verdict;
  logger.warn('the reviewer answered complete without a verification command that ran tests and passed; not accepted (supervisor.reviewer.require_evidence)', {
    evidence: evidence.length,
  });
  return {
    completed: false,
    feedback: unverifiedFeedback(verdict, verifyingCommands(config, cwd)),
    evidence,
    ...(verdict.review ? { review: verdict.review } : {}),
  };
}

function unverifiedFeedback(verdict: Verdict, commands: string[]): string {
  const ran = (verdict.evidence ?? []).map((e) => `\`${e.command}\` (exit ${e.exit_code ?? 'none'}${e.not_counted ? `, but ${e.not_counted}` : ''})`);
  return [
    `The work could not be verified: the reviewer found it complete, but no verification command ran tests that passed during the review${ran.length ? ` (it ran ${ran.join(', ')})` : ''}.`,
    commands.length
      ? `Run ${commands.map((c) => `\`${c}\``).join(' or ')}, make it pass, and show its output.`
      : 'This project has no test command ccc can find: add one (a `test` script in package.json, a `test` target in the Makefile, a pytest configuration) and show that it passes.',
    verdict.feedback.trim() ? `The reviewer said: ${verdict.feedback.trim()}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The commands that would verify the work here: the project's detected tests, then the rule checkers' commands. */
function verifyingCommands(config: CccConfig, cwd: string): string[] {
  return [...new Set([...detectTestCommands(cwd).map((t) => t.command), ...ruleCommandsOf(config)])];
}
