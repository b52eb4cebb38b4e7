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

/** A review that was not the forked one, for a line of text: `review: fresh (fork over the model's window)`. */
export function reviewKindDetails(review: ReviewKind | undefined): string {
  return review === 'fresh' ? "review: fresh (fork over the model's window)" : '';
}

/** The review kind of a verdict read as data (a plugin's answer, a log line): only a known one. */
export function reviewKindOf(value: unknown): ReviewKind | undefined {
  return value === 'fresh' ? value : undefined;
}
