/**
 * The run's summary line once it is over (`ccc: 3 reviews, $0.041, 96% of review input read from
 * cache; spent $0.520 in all`): an interactive run's, written after claude's TUI is gone and the terminal is the user's
 * again, whether the run ended well or by an error. A headless run's is its last progress line,
 * from its `end` event (progress.ts).
 */
import type { Usage } from '../claude/usage.js';
import { reviewSummary, type RunSpend } from '../loop/review-summary.js';
import type { Reporter } from './reporter.js';

/** What the session's reviews came to: every verdict and every model call a checker reported. */
export interface ReviewTally {
  readonly reviews: number;
  readonly reviewUsage: Usage;
  /** What the session spent in all (and from its wind-down on). */
  endSpend(): RunSpend;
}

export function summaryReporter(stderr: NodeJS.WritableStream, tally: ReviewTally): Reporter {
  return {
    onEvent: () => {},
    async close() {
      const summary = reviewSummary(tally.reviews, tally.reviewUsage, tally.endSpend());
      if (summary) stderr.write(`ccc: ${summary}\n`);
    },
  };
}
