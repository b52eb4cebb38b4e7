/**
 * Every review is read from the prompt cache: the review request is the agent's last request plus
 * the review message (same tools, system prompt, model and conversation), measured at the model
 * server on the real claude. And what each review spent reaches the log, the `--json` verdict
 * events and the final summary.
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { VERDICT_REMINDER } from '../../src/checkers/review-request.js';
import { readLog, runCcc, SUPERVISOR_TEXT, writeSupervisorPrompt } from '../support/ccc-run.js';
import { type ModelServer, type RecordedRequest, type Reply } from '../support/model-server.js';
import { sharedPrefixShare } from '../support/prefix-share.js';
import { reviewStep } from '../support/review-script.js';
import { jsonLines } from '../support/run-process.js';

const REVIEW_USAGE = { input_tokens: 100, cache_read_input_tokens: 9000, cache_creation_input_tokens: 50, output_tokens: 40 };
const isRetry = (r: RecordedRequest) => r.lastUserText.includes(VERDICT_REMINDER);

/** The first request of each review (not a retry), with the agent request just before it. */
function reviewStarts(server: ModelServer): Array<{ review: RecordedRequest; agent: RecordedRequest }> {
  const out: Array<{ review: RecordedRequest; agent: RecordedRequest }> = [];
  server.requests.forEach((r, i) => {
    if (r.kind !== 'review' || reviewStep(r) !== 0 || isRetry(r)) return;
    const agent = server.requests
      .slice(0, i)
      .filter((x) => x.kind === 'agent')
      .pop()!;
    out.push({ review: r, agent });
  });
  return out;
}

function expectCacheIdentical(review: RecordedRequest, earlier: RecordedRequest) {
  expect(JSON.stringify(review.body.tools)).toBe(JSON.stringify(earlier.body.tools));
  expect(review.body.model).toBe(earlier.body.model);
  const share = sharedPrefixShare(earlier.body, review.body);
  if (process.env.SHOW_SHARE) console.log('SHARE', share.toFixed(4));
  expect(share).toBeGreaterThanOrEqual(0.95);
}

describe('reviews read from the prompt cache', () => {
  it('headless: each review shares >= 95% with the agent request before it, the retry after a garbage answer too; usage reaches the log, the verdict events and the end', async ({
    rig,
  }) => {
    let answeredGarbage = false;
    const server = await rig.server((r): Reply => {
      if (r.kind !== 'review') return { text: `agent answer ${r.index}` };
      if (!answeredGarbage) {
        answeredGarbage = true;
        return { text: 'Hmm, I am not sure what to say.', usage: REVIEW_USAGE };
      }
      const first = reviewStarts(server).length === 1;
      return { verdict: first ? { completed: false, feedback: 'FEEDBACK-C1 add the tests' } : { completed: true, feedback: 'done' }, usage: REVIEW_USAGE };
    });
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '--json', '-p', 'write parse() with tests']);
    expect(run.code).toBe(0);

    const starts = reviewStarts(server);
    expect(starts).toHaveLength(2);
    for (const { review, agent } of starts) expectCacheIdentical(review, agent);
    const retries = server.requests.filter(isRetry);
    expect(retries).toHaveLength(1);
    const before = server.requests[server.requests.indexOf(retries[0]!) - 1]!;
    expect(before.kind).toBe('review');
    expectCacheIdentical(retries[0]!, before);
    // The retry forks the agent's session again (the first fork was not saved) and quotes the first answer.
    expect(retries[0]!.text).toContain('Hmm, I am not sure what to say.');
    expect(retries[0]!.text).toContain(SUPERVISOR_TEXT);

    const events = jsonLines(run.stdout);
    const verdicts = events.filter((e) => e.kind === 'verdict');
    expect(verdicts.map((v) => v.usage)).toEqual([
      expect.objectContaining({
        input_tokens: 200,
        cache_read_input_tokens: 18000,
        cache_creation_input_tokens: 100,
        output_tokens: 80,
        cost_usd: expect.any(Number),
      }),
      expect.objectContaining({ input_tokens: 100, cache_read_input_tokens: 9000, cache_creation_input_tokens: 50, output_tokens: 40 }),
    ]);
    expect((verdicts[0]!.usage as { cost_usd: number }).cost_usd).toBeGreaterThan(0);
    const end = events.find((e) => e.kind === 'end')!;
    expect(end).toMatchObject({ exit_code: 0, reviews: 2, review_usage: { cache_read_input_tokens: 27000, input_tokens: 300 } });
    expect(readLog(world)).toMatch(
      /\[INFO\] \[supervisor\] .*completed=false .*input_tokens=200 cache_read_input_tokens=18000 cache_creation_input_tokens=100 output_tokens=80 cost_usd=0\.\d+ (?:\S+ )*review finished/,
    );
  });

  it('interactive: the review request shares >= 95% with the TUI agent request before it; the cost is shown after the session', async ({ rig }) => {
    const { server, h } = await rig.launch((r): Reply =>
      r.kind === 'review' ? { verdict: { completed: true, feedback: 'fine' }, usage: REVIEW_USAGE } : { text: 'agent says done' },
    );
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    const starts = reviewStarts(server);
    expect(starts).toHaveLength(1);
    expectCacheIdentical(starts[0]!.review, starts[0]!.agent);
    await h.waitForScreen(/❯\s*\n/, 10_000);
    await h.type('/exit');
    await h.waitForScreen(/❯ \/exit/, 10_000);
    h.press('\r');
    // 9,000 of 9,150 input tokens from the cache.
    await h.waitForOutput(/ccc: 1 review, \$\d+\.\d+, 98% of review input read from cache/, 30_000);
  });
});
