/**
 * An interactive session left alone meets the model's limits in a review: the scripted server
 * answers the reviewer's first requests with 429 (a retry-after of an hour, so claude itself gives
 * up at once). ccc keeps the Stop hook alive, waits on its schedule (1 s, then 2 s:
 * CCC_SUPERVISOR_LIMIT_RETRY_SECONDS), says so, and reviews the same stop again: the verdict is
 * the review's, not "could not reach the model". The window is counted in refused requests, not
 * in time, so a slow claude on a loaded machine cannot close it early.
 */
import { describe, expect, it } from 'vitest';
import { readLog } from '../support/ccc-run.js';
import { supervisedPtyFixture } from '../support/supervised-pty.js';
import type { Reply } from '../support/model-server.js';

const limited: Reply = {
  error: { status: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your rate limit', headers: { 'retry-after': '3600' } },
};

describe('waiting out the model limits in an interactive session', () => {
  const fixture = supervisedPtyFixture();

  it('a review refused on a limit: the hook waits, the same stop is reviewed again, the verdict stands', async () => {
    const { h, server, world } = await fixture.launch(
      (r) => {
        if (r.kind === 'review') return r.index < 2 ? limited : { verdict: { completed: true, feedback: 'verified' } };
        return { text: 'agent says done' };
      },
      { prepare: (w) => (w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '1') },
    );
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 90_000);
    // Refused, refused after 1 s, let through after 2 s more; one agent turn, no review counted for the refusals.
    const reviews = server.byKind('review');
    expect(reviews).toHaveLength(3);
    expect(reviews[1]!.receivedAt - reviews[0]!.receivedAt).toBeGreaterThanOrEqual(1000);
    expect(reviews[2]!.receivedAt - reviews[1]!.receivedAt).toBeGreaterThanOrEqual(2000);
    expect(server.byKind('agent')).toHaveLength(1);
    const log = readLog(world);
    expect(log).toMatch(/\[WARN\] .*waiting on the model's limit until \S+, then resuming the session: .*rate limited/);
    expect(log).toMatch(/resuming the review/);
    expect(log).not.toMatch(/review 2\//);
    // The wait is a title the user sees while it lasts.
    expect(h.output().toString('utf8')).toMatch(/ccc: waiting on the model's limit until \d\d:\d\d/);
  }, 120_000);
});
