/**
 * How each outcome of a verdict is drawn, in one place for every report: its sign in a line of text
 * (progress, the terminal's title, the line in claude's transcript, `ccc sessions`), its mark in
 * Markdown (the GitHub job summary, `ccc report`), its GitHub annotation and whether JUnit may call
 * it a pass. The observer page keeps the same signs in its own script (assets/observer/observer.js).
 * The words that go with it are verification.ts's.
 *
 * Only `verified` is drawn as a success. `focused` (tests ran and passed, but a selection of them: a
 * path, a filter, one workspace) is not: the tests it left out may be exactly the ones that fail, so
 * it is something for a person to look at, drawn apart from `unverified` (the checker's word, no test
 * ran green) so that the two are not confused. An outcome this table does not know (a newer ccc's
 * log, a new kind of evidence) is drawn as unverified: never as a success.
 *
 * A leaf: the interactive hook's answer (src/stop/) and the observer read it below the checkers' layer.
 */

/** The outcomes a verdict is drawn as. */
export type DrawnOutcome = 'verified' | 'focused' | 'tests-changed' | 'unverified' | 'failed';

export interface OutcomeLook {
  /** Which of the outcomes it is drawn as (an outcome the table does not know: `unverified`). */
  drawnAs: DrawnOutcome;
  /** In a line of text. */
  sign: string;
  /** In Markdown. */
  mark: string;
  /** The level of the one GitHub annotation a run leaves. */
  annotation: 'notice' | 'warning' | 'error';
  /** Whether a report that has only pass and fail (JUnit) may show it as a pass. */
  passes: boolean;
  /** What the outcome means, for a run's summary; none for an outcome the table does not know (its words say it). */
  meaning?: string;
}

const LOOKS: Record<DrawnOutcome, OutcomeLook> = {
  verified: { drawnAs: 'verified', sign: '✓', mark: '✅', annotation: 'notice', passes: true, meaning: 'a verification command ran green during the review' },
  focused: {
    drawnAs: 'focused',
    sign: '◐',
    mark: '🟡',
    annotation: 'warning',
    passes: false,
    meaning: 'tests ran green during the review, but a selection of them (a path, a filter, one workspace), not the whole suite',
  },
  'tests-changed': {
    drawnAs: 'tests-changed',
    sign: '⚠',
    mark: '⚠️',
    annotation: 'warning',
    passes: false,
    meaning: 'tests ran green during the review, but tests the agent weakened since the task began (verified by tests the agent changed)',
  },
  unverified: {
    drawnAs: 'unverified',
    sign: '⚠',
    mark: '⚠️',
    annotation: 'warning',
    passes: false,
    meaning: 'the checker found the work complete, but no verification command ran green during its review',
  },
  failed: { drawnAs: 'failed', sign: '✗', mark: '❌', annotation: 'error', passes: false, meaning: 'not confirmed complete' },
};

/**
 * The look of `verification` (verificationOf's word, or one read from a log). A word the table does
 * not know looks unverified, without a meaning: the reports name it by its own word.
 */
export function lookOf(verification: string | undefined): OutcomeLook {
  if (verification !== undefined && Object.hasOwn(LOOKS, verification)) return LOOKS[verification as DrawnOutcome];
  const { meaning: _unverifiedMeaning, ...look } = LOOKS.unverified;
  return look;
}
