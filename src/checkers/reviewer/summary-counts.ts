/**
 * A runner's summary as ccc holds it (passed with its count, failed, or none ran), and the
 * arithmetic the summary parsers (summary-parsers.ts) share: counts added line by line, tests that
 * did not pass kept apart, and the summaries of several runners combined into one.
 */
import type { NotPassed } from '../evidence.js';

/** Tests ran and passed (`tests` when the runner says how many), some failed, or none ran (passed). */
export type RunSummary =
  { outcome: 'passed'; tests?: number; notPassed?: NotPassed } | { outcome: 'failed'; failed?: number } | { outcome: 'none'; notPassed?: NotPassed };

export type Parser = (lines: readonly string[]) => RunSummary | undefined;

export interface Counts {
  ran: number;
  failed: number;
  notPassed?: NotPassed;
}

/** A summary from counts: failures win, then tests that passed, else none passed. */
export function counted({ ran, failed, notPassed }: Counts): RunSummary {
  if (failed > 0) return { outcome: 'failed', failed };
  const others = nonZero(notPassed);
  if (ran > 0) return { outcome: 'passed', tests: ran, ...(others ? { notPassed: others } : {}) };
  return others ? { outcome: 'none', notPassed: others } : { outcome: 'none' };
}

/** Every match of `pattern` over the lines, each summed into one summary; undefined when none matched. */
export function sumLines(lines: readonly string[], pattern: RegExp, read: (m: RegExpExecArray) => Counts): RunSummary | undefined {
  let total: Counts = { ran: 0, failed: 0 };
  let seen = false;
  for (const line of lines) {
    const m = pattern.exec(line);
    if (!m) continue;
    total = addCounts(total, read(m));
    seen = true;
  }
  return seen ? counted(total) : undefined;
}

function addCounts(a: Counts, b: Counts): Counts {
  return { ran: a.ran + b.ran, failed: a.failed + b.failed, notPassed: addNotPassed(a.notPassed, b.notPassed) };
}

const KINDS = ['skipped', 'todo', 'xfailed', 'xpassed', 'deselected'] as const;

function addNotPassed(a: NotPassed | undefined, b: NotPassed | undefined): NotPassed | undefined {
  if (!a) return b;
  if (!b) return a;
  return Object.fromEntries(KINDS.map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
}

function nonZero(notPassed: NotPassed | undefined): NotPassed | undefined {
  if (!notPassed) return undefined;
  const kept = Object.fromEntries(KINDS.filter((k) => (notPassed[k] ?? 0) > 0).map((k) => [k, notPassed[k]]));
  return Object.keys(kept).length ? kept : undefined;
}

/** `1 failed, 2 passed` / `3 skipped | 1 passed` → counts by word. */
export function countsOf(list: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of list.matchAll(/(\d+) ([a-z]+(?: [a-z]+)?)/g)) counts[m[2]!] = (counts[m[2]!] ?? 0) + Number(m[1]);
  return counts;
}

/** Two readings of one output (two formats a runner prints), combined. */
export function either(a: RunSummary | undefined, b: RunSummary | undefined): RunSummary | undefined {
  return combine([a, b].filter((s): s is RunSummary => s !== undefined));
}

/** A summary together with the runner's own words for "no test ran" (a multi-project run may say both). */
export function orNone(lines: readonly string[], noTests: RegExp, summary: RunSummary | undefined): RunSummary | undefined {
  return combine([...(summary ? [summary] : []), ...(lines.some((l) => noTests.test(l)) ? [{ outcome: 'none' as const }] : [])]);
}

export function combine(summaries: readonly RunSummary[]): RunSummary | undefined {
  if (summaries.length === 0) return undefined;
  const failed = summaries.filter((s) => s.outcome === 'failed');
  if (failed.length > 0) {
    const counts = failed.map((s) => s.failed);
    return counts.every((c) => c !== undefined) ? { outcome: 'failed', failed: counts.reduce((a, b) => a + b, 0) } : { outcome: 'failed' };
  }
  const notPassed = nonZero(
    summaries.reduce<NotPassed | undefined>((sum, s) => addNotPassed(sum, s.outcome === 'failed' ? undefined : s.notPassed), undefined),
  );
  const also = notPassed ? { notPassed } : {};
  const passed = summaries.filter((s) => s.outcome === 'passed');
  if (passed.length === 0) return { outcome: 'none', ...also };
  const counts = passed.map((s) => s.tests);
  return counts.every((c) => c !== undefined) ? { outcome: 'passed', tests: counts.reduce((a, b) => a + b, 0), ...also } : { outcome: 'passed', ...also };
}
