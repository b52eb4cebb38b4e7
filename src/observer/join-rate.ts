/**
 * How often one source address may join: a burst (a page opened in many tabs, everyone at once),
 * then a steady rate. An observer is a person with a page; a client connecting and dropping in a
 * loop joined 2000 times a second in the observer-churn bench, each join a WebSocket handshake, a
 * hello and a close on the CPU the agent's terminal shares. Past the rate a joiner is held
 * (full-hold.ts) like one past max_observers, so such a loop runs at the rate, not at ccc's expense.
 */

/** Sources remembered at once; the least recently seen is forgotten first (it starts a full burst again). */
const MAX_SOURCES = 1024;

export interface JoinRate {
  /** True when `source` may join now (a join is counted); false when it is past its rate. */
  take(source: string | undefined): boolean;
}

export function joinRate(options: { perSecond: number; burst: number; now?: () => number }): JoinRate {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(source) {
      const key = source ?? '';
      const at = now();
      const bucket = buckets.get(key) ?? { tokens: options.burst, at };
      bucket.tokens = Math.min(options.burst, bucket.tokens + ((at - bucket.at) / 1000) * options.perSecond);
      bucket.at = at;
      // Re-inserted: the map's order is the order sources were last seen.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > MAX_SOURCES) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
