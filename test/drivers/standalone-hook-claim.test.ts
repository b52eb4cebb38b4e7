/**
 * The standalone hook's wait for another hook's review of the same session is bounded by its own
 * timeout: at the bound it answers which hook still holds the session, instead of being killed
 * by Claude Code mid-wait.
 */
import { describe, expect, it } from 'vitest';
import { claimWhenHooksAreDone } from '../../src/drivers/standalone-hook.js';
import { hookClaimWaitSeconds, hookTimeoutSeconds } from '../../src/loop/hook-timeout.js';
import type { ClaimMode, SessionClaimRecord } from '../../src/state/session-claims.js';

const holder = (mode: ClaimMode): SessionClaimRecord => ({ pid: 4242, mode, cwd: '/p', started_at: 'then' });

describe("the standalone hook's claim wait", () => {
  it('another hook that keeps the session past the bound: waited out, naming that hook', async () => {
    let asked = 0;
    const claimed = await claimWhenHooksAreDone(
      () => {
        asked += 1;
        return Promise.resolve(holder('hook'));
      },
      200,
      10,
    );
    expect(claimed).toEqual({ waitedOut: holder('hook') });
    expect(asked).toBeGreaterThan(1);
  });

  it("another hook's claim released before the bound: claimed in turn", async () => {
    let asked = 0;
    const claimed = await claimWhenHooksAreDone(() => Promise.resolve(++asked < 3 ? holder('hook') : undefined), 60_000, 10);
    expect(claimed).toEqual({});
    expect(asked).toBe(3);
  });

  it('a supervising ccc holds it: not waited for', async () => {
    expect(await claimWhenHooksAreDone(() => Promise.resolve(holder('interactive')), 60_000, 10)).toEqual({ holder: holder('interactive') });
  });

  it('the bound leaves a whole review inside the hook timeout', () => {
    for (const [timeouts, limitWait] of [
      [[600], 0],
      [[120, 600], 30],
    ] as const) {
      const wait = hookClaimWaitSeconds(timeouts, limitWait);
      const review = hookTimeoutSeconds(timeouts) - 60;
      expect(wait).toBeGreaterThan(0);
      expect(wait + review).toBeLessThan(hookTimeoutSeconds(timeouts, limitWait));
    }
  });
});
