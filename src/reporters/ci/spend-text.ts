/**
 * A run's spend against its caps in the reports, as the last verdict carried it: the same words
 * as the title and the progress lines (`spent $0.42 of $5.00, task $0.10 of $1.00`).
 */
import { spendText } from '../../loop/spend-line.js';
import type { RunRecord } from './run-record.js';

/** The spend fields of a verdict event, null where the run's verdicts carried none. */
export interface CapsSpend {
  spent_usd: number | null;
  cap_usd: number | null;
  task_spent_usd: number | null;
  task_cap_usd: number | null;
}

export function capsSpend(record: RunRecord): CapsSpend {
  return {
    spent_usd: record.spentUsd ?? null,
    cap_usd: record.capUsd ?? null,
    task_spent_usd: record.taskSpentUsd ?? null,
    task_cap_usd: record.taskCapUsd ?? null,
  };
}

/** The spend against the caps, or '' for a run without a cap (or whose verdicts carried none). */
export function capsText(s: CapsSpend): string {
  if (s.cap_usd === null && s.task_cap_usd === null) return '';
  return spendText({
    spent_usd: s.spent_usd ?? 0,
    ...(s.cap_usd === null ? {} : { cap_usd: s.cap_usd }),
    task_spent_usd: s.task_spent_usd ?? 0,
    ...(s.task_cap_usd === null ? {} : { task_cap_usd: s.task_cap_usd }),
  });
}
