/**
 * A review that fails after spending (the reviewer answered twice without a verdict) still cost
 * what it cost: the failure's `error` event carries it, and the session's spend counts it at its
 * later stops. Shown with the standalone hook, where each stop is its own process and the earlier
 * stops' reviews reach the cap only through the session's state.
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin } from '../support/claude-env.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { type Reply } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const REVIEW_USAGE = { input_tokens: 100, cache_read_input_tokens: 9000, cache_creation_input_tokens: 50, output_tokens: 40 };
const CALIBRATE = 'CALIBRATE-ONE-REVIEW-REQUEST';
const WIND_DOWN = /has reached a limit \(the cost cap/;

describe("a failed review's cost", () => {
  it('counts toward the cost cap at the next stop of a standalone-hook session', async ({ rig }) => {
    // Reviews 0 and 1 (stop 1) answer no verdict, so that review fails after two requests; every later review finds the work incomplete.
    const server = await rig.server((r): Reply => {
      if (r.lastUserText.includes(CALIBRATE)) return { text: 'ok', usage: REVIEW_USAGE };
      if (r.kind !== 'review') return { text: 'agent says done' };
      if (r.index < 2) return { text: 'Hmm, I am not sure.', usage: REVIEW_USAGE };
      return { verdict: { completed: false, feedback: 'add the tests' }, usage: REVIEW_USAGE };
    });
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    const calibrate = await runProcess(claudeBin, ['-p', CALIBRATE, '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
    const price = jsonLines(calibrate.stdout).find((f) => f.type === 'result')!.total_cost_usd as number;
    expect(price).toBeGreaterThan(0);
    expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
    // Two failed requests and one review: 3 prices reach it; the one review of the second stop alone does not.
    const env = { ...world.env, CCC_SUPERVISOR_MAX_COST_USD: String(2.5 * price) };
    const first = await runProcess(claudeBin, ['-p', 'write parse()', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(readLog(world)).toMatch(/checker failed; stop allowed/);
    const sessionId = jsonLines(first.stdout).find((f) => f.type === 'result')!.session_id as string;
    const second = await runProcess(claudeBin, ['-p', '--resume', sessionId, 'go on', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env });
    expect(second.code, second.stderr).toBe(0);
    expect(server.byKind('review')).toHaveLength(3);
    expect(server.byKind('agent').at(-1)!.lastUserText).toMatch(WIND_DOWN);
    expect(readLog(world)).toMatch(/cost cap: the cost cap of \$[0-9.e-]+ was reached/);
  }, 180_000);
});
