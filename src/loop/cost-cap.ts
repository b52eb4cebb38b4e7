/**
 * The cost cap (docs/stop-path.md, "Spending guards"): the summed `total_cost_usd` of the agent's and the reviewer's
 * result frames. Checked after each "not completed" verdict, so the loop stops before spending
 * another agent turn once the cap is reached.
 */
import type { StopGuard } from './stop-guard.js';

export function costCapGuard(spent: () => number, capUsd: number | undefined): StopGuard {
  return {
    name: 'cost cap',
    afterVerdict: () => {
      if (capUsd === undefined) return undefined;
      const total = spent();
      if (total < capUsd) return undefined;
      return { reason: 'cost-cap', message: `the cost cap of $${capUsd} was reached ($${total.toFixed(4)} spent by the agent and the reviewer)` };
    },
  };
}
