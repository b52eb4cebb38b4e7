import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVerdictShape } from '../../src/checkers/verdict-shape.js';

describe('readVerdictShape', () => {
  it('reads completed, or allow_stop in its place, and an absent feedback as empty', () => {
    expect(readVerdictShape({ completed: true, feedback: 'ok' })).toEqual({ ok: true, verdict: { completed: true, feedback: 'ok' } });
    expect(readVerdictShape({ allow_stop: false })).toEqual({ ok: true, verdict: { completed: false, feedback: '' } });
    expect(readVerdictShape({ completed: 'yes', allow_stop: true })).toEqual({ ok: true, verdict: { completed: true, feedback: '' } });
  });

  it('names what is wrong', () => {
    expect(readVerdictShape([true])).toEqual({ ok: false, problem: 'not-object' });
    expect(readVerdictShape(null)).toEqual({ ok: false, problem: 'not-object' });
    expect(readVerdictShape({ completed: 1 })).toEqual({ ok: false, problem: 'no-completed' });
    expect(readVerdictShape({ completed: true, feedback: 3 })).toEqual({ ok: false, problem: 'feedback-not-string' });
  });

  it('takes a null feedback as empty only when asked (a model answer)', () => {
    expect(readVerdictShape({ completed: true, feedback: null })).toEqual({ ok: false, problem: 'feedback-not-string' });
    expect(readVerdictShape({ completed: true, feedback: null }, { nullFeedback: true })).toEqual({ ok: true, verdict: { completed: true, feedback: '' } });
  });

  it('never throws, and a verdict it returns has a boolean completed and a string feedback', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const shape = readVerdictShape(value);
        if (shape.ok) expect([typeof shape.verdict.completed, typeof shape.verdict.feedback]).toEqual(['boolean', 'string']);
      }),
    );
  });
});
