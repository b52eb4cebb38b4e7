/** The review kind of a verdict: read as data only when known, said in words for every kind. */
import { describe, expect, it } from 'vitest';
import { validateVerdict } from '../../src/checkers/pipeline.js';
import { partialReviewDetails, reviewKindDetails, reviewKindOf } from '../../src/checkers/verification.js';

describe('the review kind', () => {
  it('is read only when it is one ccc knows', () => {
    for (const kind of ['forked', 'compacted', 'fresh'] as const) expect(reviewKindOf(kind)).toBe(kind);
    for (const other of ['FRESH', 'toString', '', 3, null, undefined, { kind: 'fresh' }]) expect(reviewKindOf(other)).toBeUndefined();
  });

  it('survives the pipeline: a verdict keeps a known kind and drops an unknown one', () => {
    expect(validateVerdict('claude', { completed: true, feedback: 'ok', review: 'compacted' })).toMatchObject({ review: 'compacted' });
    expect(validateVerdict('claude', { completed: true, feedback: 'ok', review: 'sideways' })).not.toHaveProperty('review');
  });

  it('is said for every kind in a line, and in the short form only for a review that saw less than the whole conversation', () => {
    expect(reviewKindDetails('forked')).toBe('review: forked');
    expect(reviewKindDetails('compacted')).toBe("review: compacted (fork over the model's window, summarized by claude)");
    expect(reviewKindDetails('fresh')).toBe("review: fresh (fork over the model's window even compacted)");
    expect(reviewKindDetails(undefined)).toBe('');
    expect(partialReviewDetails('forked')).toBe('');
    expect(partialReviewDetails('compacted')).toBe('compacted review');
    expect(partialReviewDetails('fresh')).toBe('fresh review');
  });
});

describe('`ccc sessions` with the last verdict', () => {
  it('names its review kind, and none for a kind it does not know', async () => {
    const { formatSession } = await import('../../src/cli/commands/sessions.js');
    const session = (review?: string) => ({
      pid: 1,
      sessionId: 's',
      cwd: '/p',
      command: [],
      startedAt: 'then',
      lastVerdict: { checker: 'claude', completed: true, feedback: 'ok', at: 'now', cost_usd: 0.01, ...(review ? { review } : {}) },
    });
    expect(formatSession(session('compacted'))).toContain(
      "verdict   ⚠ complete (claude, unverified, $0.010, review: compacted (fork over the model's window, summarized by claude), now): ok",
    );
    expect(formatSession(session('forked'))).toContain('(claude, unverified, $0.010, review: forked, now)');
    expect(formatSession(session('bogus'))).toContain('(claude, unverified, $0.010, now)');
  });
});
