/** Order statistics of a sample (nearest-rank percentiles: every reported value was measured). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(samples) {
  const sorted = [...samples].sort((x, y) => x - y);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

export function median(values) {
  return summarize(values).p50;
}

/** `value / base`, rounded for reading; NaN when either side was not measured. */
export function ratio(value, base) {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base === 0) return NaN;
  return Math.round((value / base) * 100) / 100;
}
