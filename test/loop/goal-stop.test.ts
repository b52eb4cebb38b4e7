/** When ccc leaves a stop to the `/goal` evaluator (src/loop/goal-stop.ts), with a fake transcript. */
import { describe, expect, it } from 'vitest';
import type { SessionGoal } from '../../src/frames/goal-status.js';
import { goalSendsAgentBack } from '../../src/loop/goal-stop.js';

const active: SessionGoal = { condition: 'c', state: 'active', checkedAtStop: true };

function transcript(goals: Array<SessionGoal | undefined>) {
  let reads = 0;
  return {
    reread: () => Promise.resolve({ goal: goals[Math.min(reads++, goals.length - 1)] }),
    reads: () => reads,
  };
}

describe('goalSendsAgentBack', () => {
  it("waits for this stop's check and follows it", async () => {
    const t = transcript([active, active, { ...active, thisStop: 'not-met' }]);
    expect(await goalSendsAgentBack({ goal: active, stopsSentBack: 0 }, { reread: t.reread, blockCap: 8 })).toBe(true);
    expect(t.reads()).toBe(3);
    const met = transcript([{ ...active, state: 'met', thisStop: 'met' }]);
    expect(await goalSendsAgentBack({ goal: active, stopsSentBack: 0 }, { reread: met.reread, blockCap: 8 })).toBe(false);
  });

  it('reviews when no goal is checked at this stop, when Claude Code would not honour another block, or when the check never comes', async () => {
    const never = transcript([active]);
    expect(await goalSendsAgentBack({ goal: undefined, stopsSentBack: 0 }, { reread: never.reread, blockCap: 8 })).toBe(false);
    expect(await goalSendsAgentBack({ goal: { ...active, checkedAtStop: false }, stopsSentBack: 0 }, { reread: never.reread, blockCap: 8 })).toBe(false);
    expect(await goalSendsAgentBack({ goal: { ...active, thisStop: 'not-met' }, stopsSentBack: 8 }, { reread: never.reread, blockCap: 8 })).toBe(false);
    expect(never.reads()).toBe(0);
    expect(await goalSendsAgentBack({ goal: active, stopsSentBack: 0 }, { reread: never.reread, blockCap: 8, waitMs: 120 })).toBe(false);
    expect(never.reads()).toBeGreaterThan(0);
  });

  it('stops waiting when the stop is cancelled', async () => {
    const never = transcript([active]);
    expect(await goalSendsAgentBack({ goal: active, stopsSentBack: 0 }, { reread: never.reread, blockCap: 8, signal: AbortSignal.abort() })).toBe(false);
    expect(never.reads()).toBe(0);
  });
});
