/** The restart window rule of restart-policy.ts. */
import { describe, expect, it } from 'vitest';
import { createRestartPolicy } from '../../src/mcp/keeper/restart-policy.js';

const minute = 60_000;

describe('restart policy', () => {
  it('allows max_attempts restarts inside the window, then refuses', () => {
    const policy = createRestartPolicy({ maxAttempts: 3, windowMs: 10 * minute });
    for (let i = 0; i < 3; i++) {
      expect(policy.allows(i * 1000)).toBe(true);
      policy.record(i * 1000);
    }
    expect(policy.allows(5000)).toBe(false);
    expect(policy.countInWindow(5000)).toBe(3);
  });

  it('forgets restarts older than the window, so crashes days apart never add up', () => {
    const policy = createRestartPolicy({ maxAttempts: 2, windowMs: 10 * minute });
    const day = 24 * 60 * minute;
    for (let d = 0; d < 30; d++) {
      expect(policy.allows(d * day)).toBe(true);
      policy.record(d * day);
    }
    policy.record(30 * day + 1);
    policy.record(30 * day + 2);
    expect(policy.allows(30 * day + 3)).toBe(false);
    expect(policy.allows(30 * day + 2 + 10 * minute)).toBe(true);
  });

  it('never restarts with max_attempts 0', () => {
    expect(createRestartPolicy({ maxAttempts: 0, windowMs: minute }).allows(0)).toBe(false);
  });
});
