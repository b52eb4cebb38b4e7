/**
 * What a `claude -p` run spent, from its `result` frames: tokens by kind and the cost claude
 * computed. A review's figures go into its verdict (log line, `verdict` event, headless summary)
 * and the cost cap; the cache share says how much of the input was read from the prompt cache.
 */
import type { Frame } from '../frames/frame.js';
import { roundUsd } from '../loop/spend-line.js';

export interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /**
   * Tokens of the above whose cost no price covers: a checker that reports tokens but no cost (codex
   * without `supervisor.codex.price`). `cost_usd` leaves them out, so it is a lower bound; every
   * text of a cost says so (costText).
   */
  unpriced_tokens?: number;
}

export const NO_USAGE: Usage = Object.freeze({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0, cost_usd: 0 });

/**
 * The cost of the run a `result` frame ends. Its `total_cost_usd` is the whole session's so far:
 * a `--resume` run (and a `--fork-session` one, the reviewer's) starts from the cost of the
 * session it resumes. `model_usage_since_last_result` holds this run's own, by model (pinned in
 * test/claude/resume-cost.test.ts); a claude without it gives `total_cost_usd`.
 */
export function runCost(frame: Frame): number {
  const byModel = frame.model_usage_since_last_result;
  if (byModel && typeof byModel === 'object' && !Array.isArray(byModel)) {
    // Empty when the run got no answer (a model API error): it cost nothing.
    const costs = Object.values(byModel as Record<string, unknown>).map((m) => (m && typeof m === 'object' ? (m as { costUSD?: unknown }).costUSD : undefined));
    return roundUsd(costs.reduce((sum: number, c) => sum + count(c), 0));
  }
  return roundUsd(count(frame.total_cost_usd));
}

/**
 * The usage of the run a `result` frame ends: the same requests its cost counts. Its `usage`
 * leaves out requests claude makes on its own, such as the compaction of a full context that a
 * fork runs before it answers (test/claude/fork-cost.test.ts), so the tokens come from
 * `model_usage_since_last_result`, summed over models, when claude gives it.
 */
export function usageOfResult(frame: Frame): Usage {
  const byModel = frame.model_usage_since_last_result;
  if (byModel && typeof byModel === 'object' && !Array.isArray(byModel)) {
    const models = Object.values(byModel as Record<string, unknown>).filter((m): m is Record<string, unknown> => !!m && typeof m === 'object');
    const sum = (key: string) => models.reduce((total, m) => total + count(m[key]), 0);
    return {
      input_tokens: sum('inputTokens'),
      cache_read_input_tokens: sum('cacheReadInputTokens'),
      cache_creation_input_tokens: sum('cacheCreationInputTokens'),
      output_tokens: sum('outputTokens'),
      cost_usd: runCost(frame),
    };
  }
  const usage = (frame.usage ?? {}) as Record<string, unknown>;
  return {
    input_tokens: count(usage.input_tokens),
    cache_read_input_tokens: count(usage.cache_read_input_tokens),
    cache_creation_input_tokens: count(usage.cache_creation_input_tokens),
    output_tokens: count(usage.output_tokens),
    cost_usd: runCost(frame),
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cost_usd: roundUsd(a.cost_usd + b.cost_usd),
    ...(a.unpriced_tokens || b.unpriced_tokens ? { unpriced_tokens: (a.unpriced_tokens ?? 0) + (b.unpriced_tokens ?? 0) } : {}),
  };
}

/** True when a run spent anything (a reviewer killed before its first answer spent nothing). */
export function hasUsage(u: Usage): boolean {
  return totalInput(u) + u.output_tokens > 0 || u.cost_usd > 0;
}

/** All input tokens: uncached, read from the cache, and written to it. */
export function totalInput(u: Usage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}

/** The share of the input read from the cache, 0..1 (0 when there was no input). */
export function cacheShare(u: Usage): number {
  const total = totalInput(u);
  return total === 0 ? 0 : u.cache_read_input_tokens / total;
}

/** `$0.0123, 96% of 51,200 input tokens from cache`. */
export function describeUsage(u: Usage): string {
  return `${costText(u)}, ${percent(cacheShare(u))} of ${totalInput(u).toLocaleString('en-US')} input tokens from cache`;
}

/** `$0.012`, or `$0.012 + unknown (12,345 tokens unpriced)` when some tokens have no known price. */
export function costText(u: Pick<Usage, 'cost_usd' | 'unpriced_tokens'>): string {
  const unpriced = u.unpriced_tokens ?? 0;
  return unpriced > 0 ? `${dollars(u.cost_usd)} + unknown (${unpriced.toLocaleString('en-US')} tokens unpriced)` : dollars(u.cost_usd);
}

export function dollars(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(3)}`;
}

export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
