/**
 * What a verdict, and a run, comes to in one word, the same in every report: `verified` (the
 * checker found the work complete and a verification command ran green during its review),
 * `unverified` (complete, with no such command: the checker's word only) and `failed` (not
 * complete). Derived here only, from the verdict and its evidence, so that no report can call an
 * unchecked completion verified.
 */
import { evidenceText, passingCommands, type Evidence } from './evidence.js';
import type { ReviewKind } from './types.js';

export type Verification = 'verified' | 'unverified' | 'failed';

export function verificationOf(completed: boolean, evidence: readonly Evidence[] | undefined): Verification {
  if (!completed) return 'failed';
  return passingCommands(evidence ?? []).length > 0 ? 'verified' : 'unverified';
}

/**
 * What a verdict rests on, for a line of text: `verified by: npm test`, `unverified` (also for a
 * complete verdict whose checker reports no evidence at all), `failed: npm test (exit 1)`, or
 * empty for an incomplete verdict without commands.
 */
export function verificationDetails(completed: boolean, evidence: readonly Evidence[] | undefined): string {
  return evidenceText(evidence, completed) || (completed ? 'unverified' : '');
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
