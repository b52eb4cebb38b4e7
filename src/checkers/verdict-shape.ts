/**
 * The one reading of a verdict-shaped object, shared by every place a verdict arrives as data: a
 * checker's return value (pipeline.ts), a hook's stdout (hook-checker.ts) and a reviewer's answer
 * (verdict-parser.ts). `completed` must be a boolean; `allow_stop` (the Stop hook's own word) is
 * accepted in its place; a missing `feedback` is an empty one.
 */
import type { Verdict } from './types.js';

export type VerdictShape = { ok: true; verdict: Verdict } | { ok: false; problem: 'not-object' | 'no-completed' | 'feedback-not-string' };

/** `nullFeedback`: a `feedback: null` counts as empty (a model's answer), else it is not a string. */
export function readVerdictShape(value: unknown, options: { nullFeedback?: boolean } = {}): VerdictShape {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'not-object' };
  const record = value as Record<string, unknown>;
  const completed = typeof record.completed === 'boolean' ? record.completed : record.allow_stop;
  if (typeof completed !== 'boolean') return { ok: false, problem: 'no-completed' };
  const feedback = record.feedback === undefined || (options.nullFeedback && record.feedback === null) ? '' : record.feedback;
  if (typeof feedback !== 'string') return { ok: false, problem: 'feedback-not-string' };
  return { ok: true, verdict: { completed, feedback } };
}
