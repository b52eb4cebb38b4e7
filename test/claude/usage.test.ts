/** A review's spending, summed from its result frames and shown in dollars and cache share. */
import { describe, expect, it } from 'vitest';
import { addUsage, cacheShare, describeUsage, NO_USAGE, usageOfResult } from '../../src/claude/usage.js';
import type { Frame } from '../../src/frames/frame.js';

const result = (cost: number, usage: Record<string, unknown>) => ({ type: 'result', total_cost_usd: cost, usage }) as unknown as Frame;

describe('usage', () => {
  it('sums costs without binary-fraction noise (0.1 + 0.2 is logged as 0.3)', () => {
    const a = usageOfResult(result(0.1, { input_tokens: 1 }));
    const b = usageOfResult(result(0.2, { input_tokens: 1 }));
    expect(addUsage(a, b).cost_usd).toBe(0.3);
    expect(usageOfResult(result(0.00028000000000000003, {})).cost_usd).toBe(0.00028);
  });

  it('reads tokens by kind, ignores what is not a count, and gives the cache share', () => {
    const u = usageOfResult(result(0.0123, { input_tokens: 4, cache_read_input_tokens: 96, cache_creation_input_tokens: 'x', output_tokens: -1 }));
    expect(u).toEqual({ input_tokens: 4, cache_read_input_tokens: 96, cache_creation_input_tokens: 0, output_tokens: 0, cost_usd: 0.0123 });
    expect(cacheShare(u)).toBe(0.96);
    expect(cacheShare(NO_USAGE)).toBe(0);
    expect(describeUsage(u)).toBe('$0.012, 96% of 100 input tokens from cache');
  });
});
