/**
 * The model's limits as the scripted server plays them: a 429 with the headers the real API sends,
 * and the schedule a wait on it keeps (CCC_SUPERVISOR_LIMIT_RETRY_SECONDS=1: 1 s, then 2 s).
 */
import { expect } from 'vitest';
import type { RecordedRequest, Reply, Scenario } from './model-server.js';

/** A 429 whose `retry-after` is `retryAfterSeconds`; an hour (a usage window) makes claude give up at once. */
export function rateLimited(retryAfterSeconds = 3600): Reply {
  const reset = new Date(Date.now() + retryAfterSeconds * 1000).toISOString();
  return {
    error: {
      status: 429,
      type: 'rate_limit_error',
      message: 'Number of request tokens has exceeded your rate limit',
      headers: {
        'retry-after': String(retryAfterSeconds),
        'anthropic-ratelimit-requests-reset': reset,
        'anthropic-ratelimit-tokens-reset': reset,
        'anthropic-ratelimit-input-tokens-reset': reset,
      },
    },
  };
}

/**
 * Refused, refused again after the first wait (1 s), let through after the second (2 s): three
 * requests and none in between. The window is counted in refused requests, not in time, so a slow
 * claude on a loaded machine cannot close it early.
 */
export function expectWaitedTwice(requests: readonly RecordedRequest[]): void {
  expect(requests).toHaveLength(3);
  expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1000);
  expect(requests[2]!.receivedAt - requests[1]!.receivedAt).toBeGreaterThanOrEqual(2000);
}

/** The log line of a wait on the model's limit (limit-wait.ts). */
export const WAITING_LOGGED = /\[WARN\] .*waiting on the model's limit until \S+, then resuming the session: .*rate limited/;

/** The model refuses `who`'s first `refusals` requests on a limit; reviews then say complete, the agent answers. */
export function refusingFirst(who: 'agent' | 'review', refusals: number): Scenario {
  return (r) => {
    if (r.kind === who && r.index < refusals) return rateLimited();
    return r.kind === 'review' ? { verdict: { completed: true, feedback: 'verified' } } : { text: `agent answer ${r.index}` };
  };
}
