/**
 * The line that ends a supervised run: how many reviews, what they cost, and how much of their
 * input was read from the prompt cache (`ccc: 3 reviews, $0.041, 96% of review input read from cache`).
 */
import { cacheShare, dollars, percent, totalInput, type Usage } from '../claude/usage.js';

export function reviewSummary(reviews: number, usage: Usage): string | undefined {
  if (reviews === 0 && totalInput(usage) === 0) return undefined;
  const count = `${reviews} review${reviews === 1 ? '' : 's'}`;
  if (totalInput(usage) === 0) return count;
  return `${count}, ${dollars(usage.cost_usd)}, ${percent(cacheShare(usage))} of review input read from cache`;
}
