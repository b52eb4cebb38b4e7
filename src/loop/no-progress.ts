/**
 * The no-progress breaker (docs/design/stop-path.md, "Spending guards"): when the same checker gives essentially the same
 * feedback `limit` times in a row (feedback-similarity.ts) and the work tree did not change
 * between those reviews (work-tree-fingerprint.ts), more iterations would only burn the budget:
 * stop and hand back to the user. Only "not completed" verdicts are recorded; a review with a
 * lower iteration number than the last recorded one belongs to a new task and starts afresh. The
 * history is the task's: kept under the session it began in, whatever id claude gives it since.
 */
import { feedbackTokens, sameFeedback } from './feedback-similarity.js';
import type { ProgressEntry, ProgressStore } from './progress-store.js';
import type { GuardInput, GuardStop, StopGuard } from './stop-guard.js';
import { workTreeFingerprint, type WorkTreeFingerprint } from './work-tree-fingerprint.js';

export interface NoProgressOptions {
  /** `supervisor.no_progress_limit` (default 3). */
  limit: number;
  /** Where the history lives between stops (`fileProgressStore(configDir)` outside tests). */
  store: ProgressStore;
  fingerprint?: WorkTreeFingerprint;
}

function noProgressMessage(limit: number): string {
  return `no progress: the checker gave the same feedback ${limit} times in a row and the work tree did not change`;
}

export function noProgressGuard(options: NoProgressOptions): StopGuard {
  const fingerprint = options.fingerprint ?? workTreeFingerprint();
  const limit = Math.max(1, Math.floor(options.limit));
  return {
    name: 'no-progress guard',
    async afterVerdict(input: GuardInput): Promise<GuardStop | undefined> {
      const entry: ProgressEntry = {
        iteration: input.iteration,
        checker: input.checker,
        tokens: feedbackTokens(input.verdict.feedback),
        fingerprint: await fingerprint(input.cwd),
        at: new Date().toISOString(),
      };
      const key = input.taskSessionId ?? input.sessionId;
      const previous = await options.store.load(key);
      const sameTask = previous.length > 0 && previous[previous.length - 1]!.iteration < input.iteration;
      const history = [...(sameTask ? previous : []), entry].slice(-limit);
      await options.store.save(key, history);
      if (history.length < limit) return undefined;
      const stuck = history.every((e) => e.checker === entry.checker && e.fingerprint === entry.fingerprint && sameFeedback(e.tokens, entry.tokens));
      return stuck ? { reason: 'no-progress', message: noProgressMessage(limit) } : undefined;
    },
  };
}
