/**
 * The line that ends a supervised run: how many reviews, what they cost, how much of their input
 * was read from the prompt cache, and what the run spent in all, the wind-down turn's share named
 * (`ccc: 3 reviews, $0.041, 96% of review input read from cache; spent $0.520 in all, $0.031 of it
 * on the wind-down turn`): that last turn comes after the last verdict, so no other line shows it.
 */
import { cacheShare, costText, dollars, percent, totalInput, type Usage } from '../claude/usage.js';

/** What the run spent (the `end` event's `spent_usd`, `wind_down_usd`), when known. */
export interface RunSpend {
  spent_usd?: number;
  wind_down_usd?: number;
}

export function reviewSummary(reviews: number, usage: Usage, spend: RunSpend = {}): string | undefined {
  const spent = spendSummary(spend);
  if (reviews === 0 && totalInput(usage) === 0) return spent || undefined;
  const count = `${reviews} review${reviews === 1 ? '' : 's'}`;
  const cost = totalInput(usage) === 0 ? count : `${count}, ${costText(usage)}, ${percent(cacheShare(usage))} of review input read from cache`;
  return spent ? `${cost}; ${spent}` : cost;
}

function spendSummary({ spent_usd, wind_down_usd }: RunSpend): string {
  if (spent_usd === undefined || spent_usd <= 0) return '';
  const windDown = wind_down_usd === undefined ? '' : `, ${dollars(wind_down_usd)} of it on the wind-down turn`;
  return `spent ${dollars(spent_usd)} in all${windDown}`;
}
