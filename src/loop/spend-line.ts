/**
 * A run's spend against its caps, as every report words it: the verdict event's fields and the
 * `spent $0.42 of $5.00` line the progress lines, the title, the observer page and notifications
 * show. A leaf (it imports nothing of ccc), so the observer and the reporters below or beside the
 * loop read the spend as the loop says it without importing the loop.
 */

/** The spend against the caps, as the verdict event and the title show it. */
export interface SpendFields {
  spent_usd: number;
  cap_usd?: number;
  task_spent_usd: number;
  task_cap_usd?: number;
}

/** `$0.42 of $5.00` (or `$0.42` with no cap): a spend as progress lines and the title show it. */
function spentOf(spent: number, cap: number | undefined): string {
  return cap === undefined ? `$${spent.toFixed(2)}` : `$${spent.toFixed(2)} of $${cap.toFixed(2)}`;
}

/** The spend line of a verdict: the run's, and the task's when it has its own cap. */
export function spendText(s: SpendFields): string {
  const task = s.task_cap_usd === undefined ? '' : `, task ${spentOf(s.task_spent_usd, s.task_cap_usd)}`;
  return `spent ${spentOf(s.spent_usd, s.cap_usd)}${task}`;
}

/** Sums of binary fractions print as 0.00028000000000000003: a ten-billionth of a dollar is exact enough. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}
