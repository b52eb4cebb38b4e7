/**
 * What a verdict, and a run, comes to in one word, the same in every report. Derived here only,
 * from the verdict and its evidence (evidence.ts judges each run), so that no report can call an
 * unchecked completion verified:
 *
 * - `verified`: complete, and the project's whole test suite (its test command, or every
 *   workspace's, unfiltered) ran green during the review, on tests the agent did not weaken;
 * - `focused`: complete, and only part of the suite ran green (a path, a filter, deselected tests,
 *   one workspace), or runs whose scope nobody recorded;
 * - `tests-changed`: complete, and a green run rests on tests the agent weakened since the task
 *   began (an assertion deleted or made trivial, a test removed or skipped, the runner's config
 *   or test command changed): "verified by tests the agent changed";
 * - `unverified`: complete on the checker's word only: no run that ran tests and passed, or a
 *   failing run that nothing after it answered;
 * - `failed`: not complete.
 */
import { changedTestsOf, failureText, notCountedText, passed, runText, strengthOf, unansweredFailures, type Evidence } from './evidence.js';

/**
 * `forked`: a fork of the agent's session, which sees the whole conversation. `compacted`: that
 * fork was over the model's window, so claude summarized it and sent the review again on the
 * summary (the reviewer saw the conversation only as summarized). `fresh`: even compacted it did
 * not fit, so a new session was given the task, the agent's last message and the change.
 */
export type ReviewKind = 'forked' | 'compacted' | 'fresh';

export type Verification = 'verified' | 'focused' | 'tests-changed' | 'unverified' | 'failed';

/** Every outcome, strongest first. */
export const VERIFICATIONS: readonly Verification[] = ['verified', 'focused', 'tests-changed', 'unverified', 'failed'];

export function verificationOf(completed: boolean, evidence: readonly Evidence[] | undefined): Verification {
  if (!completed) return 'failed';
  const runs = evidence ?? [];
  if (unansweredFailures(runs).length > 0) return 'unverified';
  const passing = runs.filter(passed);
  if (passing.length === 0) return 'unverified';
  if (changedTestsOf(runs).length > 0) return 'tests-changed';
  return passing.some((e) => strengthOf(e) === 'whole') ? 'verified' : 'focused';
}

/** A verification read as data (an event line): only a known one. */
export function isVerification(value: unknown): value is Verification {
  return typeof value === 'string' && (VERIFICATIONS as readonly string[]).includes(value);
}

/**
 * What a verdict rests on, for a line of text, beginning with its outcome's words:
 *
 * - `verified by: npm test (12 tests)`
 * - `focused: python3 -m pytest -k 'not garbage' (3 of 4 tests, 1 deselected; a filter (\`-k\`))`
 * - `verified by tests the agent changed: tests/test_calc.py (python3 -m pytest (2 tests))`
 * - `unverified`, `unverified: npm test: \`npm test\` runs \`echo 5 passed\`: no test runner`,
 *   `unverified: failed: python3 -m pytest -q (exit 1)`
 * - `failed: npm test (exit 1: tests/test_x.py::test_y)`; an incomplete verdict without a failing
 *   run says what its runs were (`focused: …`, `no test evidence: …`, `tests passed: npm test (3 tests)`,
 *   `on tests the agent changed: …`), and is empty without runs.
 *
 * A complete verdict's failing runs are named too (`…; failed before: pytest tests/a.py (exit 1)`): never dropped.
 */
export function verificationDetails(completed: boolean, evidence: readonly Evidence[] | undefined): string {
  const runs = evidence ?? [];
  const failing = runs.filter((e) => strengthOf(e) === 'failing');
  const failingText = failing.map(failureText).join(', ');
  if (!completed) {
    const failed = runs.filter((e) => strengthOf(e) === 'failing' || e.exit_code === null);
    if (failed.length) return `failed: ${failed.map(failureText).join(', ')}`;
    // Not complete over runs that did not fail (a require_evidence refusal, a reviewer that found more to do): what they were.
    const would = runs.length ? verificationDetails(true, runs) : '';
    return would
      .replace(/^verified by: /, 'tests passed: ')
      .replace(/^verified by tests the agent changed: /, 'on tests the agent changed: ')
      .replace(/^unverified(?=: |$)/, 'no test evidence');
  }
  const verification = verificationOf(true, runs);
  const passing = runs.filter(passed);
  const distinct = (list: Evidence[]) => [...new Map(list.map((e) => [e.command.replace(/\s+/g, ' ').trim(), e])).values()];
  const earlier = failingText ? `; failed before: ${failingText}` : '';
  switch (verification) {
    case 'verified':
      return `verified by: ${distinct(passing.filter((e) => strengthOf(e) === 'whole'))
        .map(runText)
        .join(', ')}${earlier}`;
    case 'focused':
      return `focused: ${distinct(passing).map(runText).join(', ')}${earlier}`;
    case 'tests-changed':
      return `verified by tests the agent changed: ${changedTestsOf(runs).join(', ')} (${distinct(passing).map(runText).join(', ')})${earlier}`;
    default: {
      const unanswered = unansweredFailures(runs);
      if (unanswered.length) return `unverified: failed: ${unanswered.map(failureText).join(', ')}`;
      const why = runs.filter((e) => strengthOf(e) === 'none').map(notCountedText);
      return why.length ? `unverified: ${why.join(', ')}` : 'unverified';
    }
  }
}

const REVIEW_KIND_TEXT: Record<ReviewKind, string> = {
  forked: 'review: forked',
  compacted: "review: compacted (fork over the model's window, summarized by claude)",
  fresh: "review: fresh (fork over the model's window even compacted)",
};

/** The kind of review, for a line of text (`review: forked`); empty for a checker that says none. */
export function reviewKindDetails(review: ReviewKind | undefined): string {
  return review ? REVIEW_KIND_TEXT[review] : '';
}

/** Where room is short (the terminal's title): only a review that did not see the whole conversation, in two words. */
export function partialReviewDetails(review: ReviewKind | undefined): string {
  return review === 'compacted' || review === 'fresh' ? `${review} review` : '';
}

/** The review kind of a verdict read as data (a plugin's answer, a log line): only a known one. */
export function reviewKindOf(value: unknown): ReviewKind | undefined {
  return typeof value === 'string' && Object.hasOwn(REVIEW_KIND_TEXT, value) ? (value as ReviewKind) : undefined;
}
