/**
 * `supervisor.reviewer.require_evidence`: how much the claude reviewer's `complete` needs.
 *
 * - `true`: some run of the tests that passed during the round (verified, focused, or resting on
 *   tests the agent changed: verification.ts), not the reviewer's word alone;
 * - `'whole-suite'`: the project's whole suite run green, on tests the agent did not weaken
 *   (`verified`).
 *
 * Short of that, the agent is told why the work could not be verified and which command would
 * verify it, and the loop goes on within its limits.
 */
import type { CccConfig } from '../config/types.js';
import { detectTestCommands } from '../init/test-command.js';
import { changedTestsOf, passed, runText } from './evidence.js';
import { ruleCommandsOf } from './rule-commands.js';
import type { CheckerLogger, Verdict } from './types.js';
import { verificationOf, type Verification } from './verification.js';

export function requireEvidence(config: CccConfig, checker: string, cwd: string, verdict: Verdict, logger: CheckerLogger): Verdict {
  const mode = config.supervisor.reviewer.require_evidence;
  if (!mode || (checker !== 'claude' && checker !== 'codex') || !verdict.completed) return verdict;
  const evidence = verdict.evidence ?? [];
  const verification = verificationOf(true, evidence);
  if (verification === 'verified' || (mode === true && verification !== 'unverified')) return verdict;
  logger.warn(`the reviewer answered complete, ${verification}; not accepted (supervisor.reviewer.require_evidence: ${JSON.stringify(mode)})`, {
    evidence: evidence.length,
  });
  return {
    completed: false,
    feedback: [reason(verdict, verification), instruction(verification, verifyingCommands(config, cwd)), said(verdict)].filter(Boolean).join(' '),
    evidence,
    ...(verdict.review ? { review: verdict.review } : {}),
  };
}

function reason(verdict: Verdict, verification: Verification): string {
  const evidence = verdict.evidence ?? [];
  const passing = evidence.filter(passed).map(runText).join(', ');
  switch (verification) {
    case 'focused':
      return `The work could not be verified: the reviewer found it complete, but only part of the test suite ran green (${passing}), and supervisor.reviewer.require_evidence asks for the whole suite.`;
    case 'tests-changed':
      return `The work could not be verified: the tests that ran green (${passing}) were weakened since the task began, in ${changedTestsOf(evidence).join(', ')}.`;
    default: {
      const ran = evidence.map((e) => `\`${e.command}\` (exit ${e.exit_code ?? 'none'}${e.not_counted ? `, but ${e.not_counted}` : ''})`);
      return `The work could not be verified: the reviewer found it complete, but no run of the tests passed during the review${ran.length ? ` (it ran ${ran.join(', ')})` : ''}.`;
    }
  }
}

function instruction(verification: Verification, commands: string[]): string {
  const run = commands.map((c) => `\`${c}\``).join(' or ');
  if (verification === 'tests-changed')
    return `Restore what those tests checked (an assertion, a test, a skip or xfail, the runner's configuration or test command), make the code pass them${run ? `, and run ${run} whole` : ''}.`;
  if (!commands.length)
    return 'This project has no test command ccc can find: add one (a `test` script in package.json, a `test` target in the Makefile, a pytest configuration) and show that it passes.';
  return verification === 'focused'
    ? `Run ${run} whole, without a filter, make it pass, and show its output.`
    : `Run ${run}, make it pass, and show its output.`;
}

function said(verdict: Verdict): string {
  return verdict.feedback.trim() ? `The reviewer said: ${verdict.feedback.trim()}` : '';
}

/** The commands that would verify the work here: the project's detected tests, then the rule checkers' commands. */
function verifyingCommands(config: CccConfig, cwd: string): string[] {
  return [...new Set([...detectTestCommands(cwd).map((t) => t.command), ...ruleCommandsOf(config)])];
}
