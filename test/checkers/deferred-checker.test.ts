/** deferredChecker: the checker's module loads at the first check, once, and the checks are its own. */
import { describe, expect, it } from 'vitest';
import { deferredChecker } from '../../src/checkers/deferred-checker.js';
import type { CheckContext, Checker } from '../../src/checkers/types.js';

describe('deferredChecker', () => {
  it('loads nothing until the first check, then loads once and answers with the real checker', async () => {
    let loads = 0;
    const seen: Array<[unknown, AbortSignal]> = [];
    const real: Checker = {
      name: 'claude',
      check: async (ctx, signal) => {
        seen.push([ctx, signal]);
        return { completed: seen.length > 1, feedback: `round ${seen.length}` };
      },
    };
    const checker = deferredChecker('claude', async () => {
      loads += 1;
      return real;
    });
    expect(checker.name).toBe('claude');
    expect(loads).toBe(0);
    const ctx = { sessionId: 's' } as unknown as CheckContext;
    const signal = new AbortController().signal;
    const [first, second] = await Promise.all([checker.check(ctx, signal), checker.check(ctx, signal)]);
    expect(loads).toBe(1);
    expect([first, second]).toEqual([
      { completed: false, feedback: 'round 1' },
      { completed: true, feedback: 'round 2' },
    ]);
    expect(seen).toEqual([
      [ctx, signal],
      [ctx, signal],
    ]);
  });

  it('a module that fails to load fails the check that needed it', async () => {
    const checker = deferredChecker('claude', () => Promise.reject(new Error('cannot load')));
    await expect(checker.check({} as CheckContext, new AbortController().signal)).rejects.toThrow('cannot load');
  });
});
