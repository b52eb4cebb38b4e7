/**
 * A review's reported cost is claude's own `total_cost_usd` for the reviewer's runs, in both
 * modes. Claude counts a resumed or forked session's earlier cost into a run's total, so without
 * care the headless path reports the agent's cost as the review's and a retry counts its first
 * attempt twice. The price of one review request is measured with a plain `claude -p` (a fresh
 * session), so the test holds whatever claude's price table says.
 */
import { describe, expect } from 'vitest';
import { dollars } from '../../src/claude/usage.js';
import { VERDICT_REMINDER } from '../../src/checkers/review-request.js';
import { cccBin, claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const REVIEW_USAGE = { input_tokens: 100, cache_read_input_tokens: 9000, cache_creation_input_tokens: 50, output_tokens: 40 };
/** The agent is expensive, so a review that counted it could not go unnoticed. */
const AGENT_USAGE = { input_tokens: 20000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 30000 };
const CALIBRATE = 'CALIBRATE-ONE-REVIEW-REQUEST';

/** Agents cost AGENT_USAGE, review requests REVIEW_USAGE; the first request of review 1 is no verdict (a retry follows). */
function scenario(reviewerAnswers: (reviewRequest: number) => Reply): (r: RecordedRequest) => Reply {
  let reviewRequests = 0;
  return (r) => {
    if (r.lastUserText.includes(CALIBRATE)) return { text: 'ok', usage: REVIEW_USAGE };
    if (r.kind !== 'review') return { text: 'agent says done', usage: AGENT_USAGE };
    return { ...reviewerAnswers(reviewRequests++), usage: REVIEW_USAGE };
  };
}

/** What claude charges for one request of REVIEW_USAGE, from its own total for a fresh session. */
async function onePrice(world: ClaudeWorld): Promise<number> {
  const run = await runProcess(claudeBin, ['-p', CALIBRATE, '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
  expect(run.code, run.stderr).toBe(0);
  const price = jsonLines(run.stdout).find((f) => f.type === 'result')!.total_cost_usd as number;
  expect(price).toBeGreaterThan(0);
  return price;
}

const garbage: Reply = { text: 'Hmm, I am not sure.' };

// Each case runs a supervised claude, a review with a retry, then a plain claude for the price: on a
// loaded 2-core machine that sum outlasts the default 60 s bound, which only the inner waits should set.
describe("a review's cost is the reviewer's own", () => {
  it("headless: each verdict's cost is its requests' price, not the agent's session cost, a retry counted once", async ({ rig }) => {
    const { server, world } = await rig.start(
      scenario((n) =>
        n === 0
          ? garbage
          : n === 1
            ? { verdict: { completed: false, feedback: 'FEEDBACK-C1 add the tests' } }
            : { verdict: { completed: true, feedback: 'done' } },
      ),
    );
    const run = await runCcc(world, ['--supervisor', '--json', '-p', 'write parse()']);
    expect(run.code, run.stderr).toBe(0);
    const price = await onePrice(world);
    const events = jsonLines(run.stdout);
    const costs = events.filter((e) => e.kind === 'verdict').map((e) => (e.usage as { cost_usd: number }).cost_usd);
    expect(server.byKind('review').filter((r) => r.lastUserText.includes(VERDICT_REMINDER))).toHaveLength(1);
    expect(costs).toHaveLength(2);
    expect(costs[0]).toBeCloseTo(2 * price, 9); // the answer without a verdict, then the retry
    expect(costs[1]).toBeCloseTo(price, 9);
    const end = events.find((e) => e.kind === 'end') as { review_usage: { cost_usd: number } };
    expect(end.review_usage.cost_usd).toBeCloseTo(3 * price, 9);
    expect(readLog(world)).toMatch(new RegExp(`cost_usd=${costs[1]} spent_usd=[0-9.]+ task_spent_usd=[0-9.]+ review finished`));
  }, 150_000);

  it('interactive: the verdict, the title and `ccc sessions` show the review at its price, the retry counted once', async ({ rig }) => {
    const { world, h } = await rig.launch(scenario((n) => (n === 0 ? garbage : { verdict: { completed: true, feedback: 'fine' } })));
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    const price = await onePrice(world);
    // The title: `ccc: ⚠ review 1 complete (unverified, $…, spent $…)`, written as an OSC 0 sequence.
    await h.waitForOutput(new RegExp(`\\]0;ccc: ⚠ review 1 complete \\(unverified, \\${dollars(2 * price)}, spent \\$\\d+\\.\\d\\d\\)\\x07`), 10_000);
    const sessions = await runProcess(process.execPath, [cccBin, 'sessions', '--json'], { cwd: world.cwd, env: world.env });
    const [session] = (JSON.parse(sessions.stdout) as { sessions: Array<{ lastVerdict: { cost_usd: number; completed: boolean; evidence: unknown[] } }> })
      .sessions;
    expect(session!.lastVerdict).toMatchObject({ completed: true, evidence: [] });
    expect(session!.lastVerdict.cost_usd).toBeCloseTo(2 * price, 9);
    const text = await runProcess(process.execPath, [cccBin, 'sessions'], { cwd: world.cwd, env: world.env });
    expect(text.stdout).toContain(`verdict   ⚠ complete (claude, unverified, ${dollars(2 * price)}, spent $`);
  }, 150_000);
});
