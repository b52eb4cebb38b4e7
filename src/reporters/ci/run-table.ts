/**
 * Many runs in one table (`ccc report`): a matrix's event logs merged for a final job. One row per
 * run (task, outcome, verification and, where reviewers disagreed, who said what; exit code, reviews, cost, spend against the caps, review cache share, duration) and the
 * totals: runs, completed runs, verified / focused / tests-changed / unverified / failed runs, reviews, cost, the cache share of all review input, and the summed run time.
 */
import { addUsage, cacheShare, dollars, NO_USAGE, percent, totalInput, type Usage } from '../../claude/usage.js';
import { markdownText } from './markdown-text.js';
import { capsSpend, capsText, type CapsSpend } from './spend-text.js';
import type { Verification } from '../../checkers/verification.js';
import { lookOf, type DrawnOutcome } from '../../checkers/verdict-look.js';
import { durationText, firstLine, outcomeText, totalCost, type Outcome, type ReviewerSaid, type RunRecord } from './run-record.js';

interface RunRow extends CapsSpend {
  file: string;
  task: string | null;
  outcome: Outcome;
  completed: boolean;
  verification: Verification;
  exit_code: number | null;
  reviews: number;
  cost_usd: number;
  agent_cost_usd: number;
  review_cost_usd: number;
  review_cache_share: number | null;
  duration_ms: number | null;
  session_id: string | null;
  /** Who said what in the last review, when its reviewers did not agree. */
  reviewers: ReviewerSaid[] | null;
}

export interface RunTable {
  runs: RunRow[];
  totals: Record<DrawnOutcome, number> & {
    /** Runs of an outcome this ccc does not know (a newer ccc's log), by its word; absent when none. */
    other_verifications?: Record<string, number>;
    runs: number;
    completed: number;
    reviews: number;
    cost_usd: number;
    review_cost_usd: number;
    review_cache_share: number | null;
    duration_ms: number;
  };
}

export function runTable(runs: ReadonlyArray<{ file: string; record: RunRecord }>): RunTable {
  let reviewUsage: Usage = NO_USAGE;
  const rows = runs.map(({ file, record }): RunRow => {
    reviewUsage = addUsage(reviewUsage, record.reviewUsage);
    return {
      file,
      task: record.task ?? null,
      outcome: record.outcome,
      completed: record.completed,
      verification: record.verification,
      exit_code: record.exitCode ?? null,
      reviews: record.reviews.length,
      cost_usd: totalCost(record),
      agent_cost_usd: record.agentCostUsd,
      review_cost_usd: record.reviewUsage.cost_usd,
      ...capsSpend(record),
      review_cache_share: share(record.reviewUsage),
      duration_ms: record.durationMs ?? null,
      session_id: record.sessionId ?? null,
      reviewers: record.reviews.at(-1)?.opinions ?? null,
    };
  });
  const sum = (pick: (r: RunRow) => number) => rows.reduce((total, r) => total + pick(r), 0);
  return {
    runs: rows,
    totals: {
      runs: rows.length,
      completed: rows.filter((r) => r.completed).length,
      ...outcomeCounts(rows),
      reviews: sum((r) => r.reviews),
      cost_usd: round(sum((r) => r.cost_usd)),
      review_cost_usd: reviewUsage.cost_usd,
      review_cache_share: share(reviewUsage),
      duration_ms: sum((r) => r.duration_ms ?? 0),
    },
  };
}

export function runTableMarkdown(table: RunTable): string {
  const lines = ['| Task | Outcome | Verification | Exit | Reviews | Cost | Caps | Review cache | Duration |', '|---|---|---|---:|---:|---:|---|---:|---:|'];
  for (const r of table.runs) {
    const task = r.task === null ? `(no task in ${markdownText(r.file, 80)})` : markdownText(firstLine(r.task), 120);
    const cells = [
      task,
      outcomeText(r.outcome),
      `${lookOf(r.verification).mark} ${r.verification}${r.reviewers ? ` (${saidText(r.reviewers)})` : ''}`,
      r.exit_code === null ? '' : String(r.exit_code),
      String(r.reviews),
      dollars(r.cost_usd),
      capsText(r),
      r.review_cache_share === null ? '' : percent(r.review_cache_share),
      durationText(r.duration_ms ?? undefined),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const t = table.totals;
  lines.push(
    `| **Total: ${t.runs} run${t.runs === 1 ? '' : 's'}** | ${t.completed} completed | ${outcomeCountsText(t)} | | ${t.reviews} | ${dollars(t.cost_usd)} | | ${t.review_cache_share === null ? '' : percent(t.review_cache_share)} | ${durationText(t.duration_ms)} |`,
  );
  return `${lines.join('\n')}\n`;
}

/** `claude: complete, codex: not complete`: who said what, where the reviewers did not agree. */
function saidText(reviewers: readonly ReviewerSaid[]): string {
  return reviewers.map((o) => `${markdownText(o.checker, 40)}: ${o.completed ? 'complete' : 'not complete'}`).join(', ');
}

/** The runs of each outcome: the four always, and any other a log names (a newer ccc's) by its own word. */
function outcomeCounts(rows: readonly RunRow[]): Record<DrawnOutcome, number> & { other_verifications?: Record<string, number> } {
  const counts: Record<DrawnOutcome, number> = { verified: 0, focused: 0, 'tests-changed': 0, unverified: 0, failed: 0 };
  const others: Record<string, number> = {};
  for (const r of rows) {
    if (Object.hasOwn(counts, r.verification)) counts[r.verification] += 1;
    else others[r.verification] = (others[r.verification] ?? 0) + 1;
  }
  return Object.keys(others).length > 0 ? { ...counts, other_verifications: others } : counts;
}

/** `3 verified, 1 focused, 0 tests-changed, 0 unverified, 2 failed`, and any other outcome there was. */
function outcomeCountsText(t: RunTable['totals']): string {
  const counts = {
    verified: t.verified,
    focused: t.focused,
    'tests-changed': t['tests-changed'],
    unverified: t.unverified,
    failed: t.failed,
    ...t.other_verifications,
  };
  return Object.entries(counts)
    .map(([word, n]) => `${n} ${word}`)
    .join(', ');
}

function share(usage: Usage): number | null {
  return totalInput(usage) === 0 ? null : Math.round(cacheShare(usage) * 1000) / 1000;
}

function round(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}
