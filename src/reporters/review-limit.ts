/**
 * `ccc kanban --supervise`'s log (SUPERVISOR_LOG.md) gets a Review Limit Event when a card's
 * reviews reach the iteration limit with the work still incomplete (the last-iteration rule):
 * the last verdict's checker and feedback, so that whoever picks the card up reads what is left.
 * Written in order, settled when the run closes its reporters.
 */
import type { SupervisorEvent } from '../loop/events.js';
import type { Reporter } from './reporter.js';

/** Kanban's side: where the entry goes and in which words (src/kanban/supervisor-log.ts). */
export interface ReviewLimitLog {
  maxIterations: number;
  /** Writes the entry; never rejects (a log that cannot be written says so itself). */
  write(record: { reviews: number; checker: string; feedback: string }): Promise<void>;
}

export function reviewLimitReporter(log: ReviewLimitLog): Reporter {
  let last: Extract<SupervisorEvent, { kind: 'verdict' }> | undefined;
  let written: Promise<void> = Promise.resolve();
  return {
    onEvent(e) {
      if (e.kind === 'verdict') last = e.completed ? undefined : e;
      if (e.kind !== 'stopped') return;
      // The limit the last-iteration rule reached: a review at the limit found the work incomplete.
      const verdict = last;
      last = undefined;
      if (e.reason !== 'limit' || !verdict || verdict.iteration < log.maxIterations) return;
      written = written.then(() => log.write({ reviews: verdict.iteration, checker: verdict.checker, feedback: verdict.feedback }));
    },
    close: () => written,
  };
}
