/**
 * A checker cannot contradict its own evidence: a `complete` whose round holds a failing run of a
 * verification command that nothing after it answered (a later passing run of the same command,
 * or of the whole suite: `unansweredFailures`, evidence.ts) is not accepted, whatever
 * `require_evidence` says. The failure goes back to the agent as its next message (the command,
 * its exit code, the failing tests with their first lines, and what the checker said), and the loop
 * goes on within its limits: the failure is work the agent can do in the session it is in, and a
 * run that cannot fix it ends at its limits as not complete (exit 3), never as done.
 */
import { shortCommand, unansweredFailures, type Evidence } from './evidence.js';
import type { CheckerLogger, Verdict } from './types.js';

const FAILURES_SHOWN = 5;

export function refuseOverFailingRun(checker: string, verdict: Verdict, logger: CheckerLogger): Verdict {
  if (!verdict.completed) return verdict;
  const failing = unansweredFailures(verdict.evidence ?? []);
  if (failing.length === 0) return verdict;
  logger.warn(`${checker} answered complete over its own failing run; not accepted: the failure goes back to the agent`, {
    failing: failing.map((e) => `${shortCommand(e.command)} (exit ${e.exit_code})`).join(', '),
  });
  return {
    completed: false,
    feedback: overFailingRunFeedback(checker, verdict, failing),
    ...(verdict.evidence ? { evidence: verdict.evidence } : {}),
    ...(verdict.review ? { review: verdict.review } : {}),
  };
}

/** The failure as the agent's next message: the first line says what ccc refused and why. */
function overFailingRunFeedback(checker: string, verdict: Verdict, failing: readonly Evidence[]): string {
  const runs = failing.map((e) => `\`${e.command}\` (exit ${e.exit_code})`).join(', ');
  const lines = [`ccc did not accept the ${checker === 'claude' ? 'reviewer' : checker}'s "complete": its own run of ${runs} failed and no later run passed.`];
  const failures = failing.flatMap((e) => e.failures ?? []);
  if (failures.length) {
    lines.push('Failing tests:', ...failures.slice(0, FAILURES_SHOWN).map((f) => `- ${f}`));
    if (failures.length > FAILURES_SHOWN) lines.push(`- … and ${failures.length - FAILURES_SHOWN} more`);
  }
  lines.push(
    `Make ${failing.length === 1 ? 'it' : 'them'} pass (fix the code, not the tests), run ${runs.replace(/ \(exit \d+\)/g, '')} again and show that it passes.`,
  );
  if (verdict.feedback.trim()) lines.push(`The ${checker === 'claude' ? 'reviewer' : 'checker'} said: ${verdict.feedback.trim()}`);
  return lines.join('\n');
}
