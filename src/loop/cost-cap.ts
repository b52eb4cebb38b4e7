/**
 * The cost caps (docs/design/stop-path.md, "Cost cap"): what the agent and the reviews spent, for the run
 * (`supervisor.max_cost_usd`) and for the current task (`supervisor.max_task_cost_usd`, counted
 * from the spend when the task began). Checked after each "not completed" verdict, so the loop
 * stops before spending another agent turn once a cap is reached.
 */
import type { StopGuard } from './stop-guard.js';
import { roundUsd, type SpendFields } from './spend-line.js';

export interface CostCaps {
  /** What the run has spent so far (USD). */
  spent(): number;
  capUsd: number | undefined;
  taskCapUsd: number | undefined;
}

export function spendFields(caps: CostCaps, taskCostFrom: number): SpendFields {
  const spent = roundUsd(caps.spent());
  return {
    spent_usd: spent,
    ...(caps.capUsd === undefined ? {} : { cap_usd: caps.capUsd }),
    task_spent_usd: roundUsd(Math.max(0, spent - taskCostFrom)),
    ...(caps.taskCapUsd === undefined ? {} : { task_cap_usd: caps.taskCapUsd }),
  };
}

export function costCapGuard(caps: CostCaps): StopGuard {
  return {
    name: 'cost cap',
    afterVerdict: ({ taskCostFrom }) => {
      const spend = spendFields(caps, taskCostFrom ?? 0);
      if (spend.cap_usd !== undefined && spend.spent_usd >= spend.cap_usd)
        return {
          reason: 'cost-cap',
          message: `the cost cap of $${spend.cap_usd} was reached ($${spend.spent_usd.toFixed(4)} spent by the agent and the reviewer)`,
        };
      if (spend.task_cap_usd !== undefined && spend.task_spent_usd >= spend.task_cap_usd)
        return {
          reason: 'cost-cap',
          message: `the task's cost cap of $${spend.task_cap_usd} was reached ($${spend.task_spent_usd.toFixed(4)} spent on this task by the agent and the reviewer)`,
        };
      return undefined;
    },
  };
}
