/** The cost caps: the run's spend against `max_cost_usd`, the task's (from its start) against `max_task_cost_usd`. */
import { describe, expect, it } from 'vitest';
import { costCapGuard, spendFields } from '../../src/loop/cost-cap.js';
import { spendText } from '../../src/loop/spend-line.js';
import type { GuardInput } from '../../src/loop/stop-guard.js';

const input = (taskCostFrom?: number): GuardInput => ({
  sessionId: 's',
  cwd: '/',
  iteration: 1,
  verdict: { completed: false, feedback: 'no' },
  checker: 'claude',
  ...(taskCostFrom === undefined ? {} : { taskCostFrom }),
});

describe('cost caps', () => {
  it('the task cap counts from the task start; the run cap from 0', async () => {
    const caps = { spent: () => 2.5, capUsd: undefined, taskCapUsd: 1 };
    expect(await costCapGuard(caps).afterVerdict(input(2))).toBeUndefined();
    expect(await costCapGuard(caps).afterVerdict(input(1.5))).toMatchObject({
      reason: 'cost-cap',
      message: expect.stringContaining("the task's cost cap of $1"),
    });
    expect(await costCapGuard({ ...caps, capUsd: 2 }).afterVerdict(input(2))).toMatchObject({ message: expect.stringContaining('the cost cap of $2') });
  });

  it('shows spent against cap, the task only when it has a cap', () => {
    expect(spendText(spendFields({ spent: () => 0.42, capUsd: 5, taskCapUsd: undefined }, 0))).toBe('spent $0.42 of $5.00');
    expect(spendText(spendFields({ spent: () => 0.42, capUsd: undefined, taskCapUsd: 1 }, 0.4))).toBe('spent $0.42, task $0.02 of $1.00');
  });
});
