/**
 * A verdict as every report shows it: the outcome verification.ts gives it, the sign
 * verdict-look.ts draws it with, and what it rests on in verification.ts's words. The progress
 * line, the terminal's title, the line in claude's transcript, `ccc sessions` and the observers
 * all go through here, so that no surface words or draws a verdict its own way, and a new outcome
 * or a new kind of evidence shows everywhere at once.
 */
import type { Evidence } from './evidence.js';
import type { Verdict } from './types.js';
import { lookOf, type OutcomeLook } from './verdict-look.js';
import { verificationDetails, verificationOf } from './verification.js';

export interface ShownVerdict extends OutcomeLook {
  /** What the verdict rests on (`verified by: npm test (12 tests)`, `unverified`, `failed: npm test (exit 1)`); empty when nothing is known. */
  details: string;
}

export function shownVerdict(completed: boolean, evidence: readonly Evidence[] | undefined): ShownVerdict {
  return { ...lookOf(verificationOf(completed, evidence)), details: verificationDetails(completed, evidence) };
}

/** The shown verdict of a stop's decision, when a checker gave one (not at a limit's wind-down, nor a checker's failure). */
export function shownVerdictOf(verdict: Pick<Verdict, 'completed' | 'evidence'> | undefined): ShownVerdict | undefined {
  return verdict && shownVerdict(verdict.completed, verdict.evidence);
}
