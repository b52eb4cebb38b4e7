/**
 * What a codex review spent, in ccc's terms. Codex reports tokens (its `turn.completed` usage:
 * input, of which cached, and output, reasoning included) and no cost: with
 * `supervisor.codex.price` (USD per million tokens) ccc computes it; without, the tokens are
 * counted as unpriced and every report says the cost is unknown rather than $0. No price table
 * is built in: one would be wrong for the next model, a provider of one's own, or a subscription.
 */
import type { Usage } from '../../claude/usage.js';
import type { CodexTokens } from './codex-events.js';
import type { CodexSettings } from './codex-launch.js';

export function codexUsage(tokens: CodexTokens, price: CodexSettings['price']): Usage {
  const cached = Math.min(tokens.cachedInput, tokens.input);
  const written = Math.min(tokens.cacheWrite, tokens.input - cached);
  const uncached = tokens.input - cached - written;
  const usage = { input_tokens: uncached, cache_read_input_tokens: cached, cache_creation_input_tokens: written, output_tokens: tokens.output };
  const all = tokens.input + tokens.output;
  if (!price) return { ...usage, cost_usd: 0, ...(all > 0 ? { unpriced_tokens: all } : {}) };
  const cost = ((uncached + written) * price.input + cached * price.cached_input + tokens.output * price.output) / 1e6;
  return { ...usage, cost_usd: Math.round(cost * 1e10) / 1e10 };
}
