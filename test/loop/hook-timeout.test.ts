import { describe, expect, it } from 'vitest';
import { checkerTimeoutsSeconds, HOOK_TIMEOUT_MARGIN_SECONDS, hookTimeoutSeconds } from '../../src/loop/hook-timeout.js';

describe("the Stop hook's timeout", () => {
  it("takes each checker's own timeout_seconds, else supervisor.timeout_seconds", () => {
    const checkers = ['claude', { use: 'rule', commands: ['npm test'], timeout_seconds: 1800 }, { use: 'hook', command: 'x' }];
    expect(checkerTimeoutsSeconds({ timeout_seconds: 600, checkers })).toEqual([600, 1800, 600]);
  });

  it("covers the pipeline's worst case: every checker to its limit and its abort grace, in turn, plus the margin", () => {
    expect(hookTimeoutSeconds([600, 1800, 600])).toBe(600 + 1800 + 600 + 3 * 1 + HOOK_TIMEOUT_MARGIN_SECONDS);
    expect(hookTimeoutSeconds([600])).toBe(661);
  });

  it("lasts through the waiting budget on the model's limits: a refused review is waited out inside the stop", () => {
    expect(hookTimeoutSeconds([600], 300)).toBe(661 + 300 * 60);
  });

  it('is a whole number of seconds even for fractional limits', () => {
    expect(hookTimeoutSeconds([0.5, 0.25])).toBe(1 + 2 + HOOK_TIMEOUT_MARGIN_SECONDS);
  });

  it('is the margin alone for an empty pipeline', () => {
    expect(hookTimeoutSeconds([])).toBe(HOOK_TIMEOUT_MARGIN_SECONDS);
  });
});
