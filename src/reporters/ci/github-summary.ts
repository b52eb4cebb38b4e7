/**
 * The Markdown job summary of one headless run: the task, the outcome and exit code, whether the
 * completion is verified, unverified or failed, a table of the reviews (each with what its verdict
 * rests on), the totals and where the log is. Every text that is not ccc's own goes through
 * `markdownText`. GitHub refuses a step's summary above 1 MiB (older runners 128 KiB) as a whole,
 * so the table shows at most MAX_ROWS reviews and each cell a bounded text.
 */
import { cacheShare, costText, dollars, percent, totalInput } from '../../claude/usage.js';
import { markdownText } from './markdown-text.js';
import { capsSpend, capsText } from './spend-text.js';
import { lookOf } from '../../checkers/verdict-look.js';
import { shownVerdict } from '../../checkers/verdict-text.js';
import { partialReviewDetails } from '../../checkers/verification.js';
import { durationText, firstLine, outcomeText, totalCost, verificationText, type ReviewRecord, type RunRecord } from './run-record.js';

const MAX_ROWS = 100;
const FEEDBACK_CHARS = 200;
const TASK_CHARS = 500;

export function githubSummary(record: RunRecord, where: { logFile?: string; junitFile?: string } = {}): string {
  const title = record.completed ? `${outcomeText(record.outcome)}, ${record.verification}` : outcomeText(record.outcome);
  // The mark is the outcome's (checkers/verdict-look.ts): only a verified completion is drawn as a success.
  const lines = [`### ${lookOf(record.verification).mark} ccc: ${title}`, ''];
  lines.push(`**Task:** ${record.task === undefined ? '(not in the event log)' : markdownText(record.task, TASK_CHARS)}`, '');
  const facts = [`exit code ${record.exitCode ?? 'unknown'}`, `${record.reviews.length} review${record.reviews.length === 1 ? '' : 's'}`];
  if (record.durationMs !== undefined) facts.push(durationText(record.durationMs));
  lines.push(`**Outcome:** ${outcomeText(record.outcome)} · ${facts.join(' · ')}`, '');
  lines.push(`**Verification:** ${verificationText(record.verification)}`, '');
  if (record.message) lines.push(`**Why:** ${markdownText(record.message, FEEDBACK_CHARS)}`, '');

  if (record.reviews.length > 0) {
    lines.push('| # | Checker | Verdict | Verification | Feedback | Duration | Cost | Cache |', '|---:|---|---|---|---|---:|---:|---:|');
    for (const review of record.reviews.slice(0, MAX_ROWS)) lines.push(reviewRow(review));
    const hidden = record.reviews.length - MAX_ROWS;
    if (hidden > 0) lines.push(`| … | | ${hidden} more review${hidden === 1 ? '' : 's'} | | | | | |`);
    const reviewMs = record.reviews.reduce((sum, r) => sum + (r.durationMs ?? 0), 0);
    const usage = record.reviewUsage;
    lines.push(`| **Total** | | | | | ${durationText(reviewMs)} | ${costText(usage)} | ${totalInput(usage) > 0 ? percent(cacheShare(usage)) : ''} |`, '');
  }

  const cap = capsText(capsSpend(record));
  lines.push(
    `**Cost:** ${dollars(totalCost(record))} (agent ${dollars(record.agentCostUsd)}, reviews ${costText(record.reviewUsage)}${cap ? `; ${cap}` : ''})`,
    '',
  );
  if (record.sessionId) lines.push(`**Session:** ${markdownText(record.sessionId)}`, '');
  if (where.logFile) lines.push(`**Log:** ${markdownText(where.logFile)}`, '');
  if (where.junitFile) lines.push(`**JUnit report:** ${markdownText(where.junitFile)}`, '');
  return `${lines.join('\n')}\n`;
}

function reviewRow(review: ReviewRecord): string {
  const verdict = {
    complete: `${shownVerdict(true, review.evidence).sign} complete`,
    'not complete': `${shownVerdict(false, review.evidence).sign} not complete`,
    failed: '⚠ checker failed',
    cancelled: 'cancelled',
    unfinished: 'unfinished',
  }[review.result];
  const usage = review.usage;
  const cells = [
    String(review.n),
    markdownText([review.checker || '?', partialReviewDetails(review.review)].filter(Boolean).join(', '), 80),
    verdict,
    review.verification ? markdownText(shownVerdict(review.result === 'complete', review.evidence).details || review.verification, FEEDBACK_CHARS) : '',
    markdownText(firstLine(review.feedback), FEEDBACK_CHARS),
    durationText(review.durationMs),
    usage ? costText(usage) : '',
    usage && totalInput(usage) > 0 ? percent(cacheShare(usage)) : '',
  ];
  return `| ${cells.join(' | ')} |`;
}
