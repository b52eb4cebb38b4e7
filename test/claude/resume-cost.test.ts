/**
 * What the `result` frame of a resumed `claude -p` run says it cost. Pinned on 2.1.330: its
 * `total_cost_usd` (and `modelUsage`) is the cost of the whole session so far, the runs it resumes
 * included, and so is a `--fork-session` run's (the reviewer's: the agent's cost is in it); its
 * `usage` and `model_usage_since_last_result` are that run's alone (empty when the model never
 * answered). ccc takes a run's cost from the latter (src/claude/usage.ts `runCost`).
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { runCost, usageOfResult } from '../../src/claude/usage.js';
import { runClaudePrint } from '../../src/claude/claude-print.js';
import type { Frame } from '../../src/frames/frame.js';
import { claudeBin } from '../support/claude-env.js';

const args = ['-p', '--output-format', 'stream-json', '--verbose'];

describe('the real claude: the cost a resumed run reports', () => {
  it('total_cost_usd sums the resumed session (a fork too); usage and model_usage_since_last_result are the run alone', async ({ rig }) => {
    let failing = false;
    const server = await rig.server(() =>
      failing ? { error: { status: 400, message: 'no' } } : { text: 'ok', usage: { input_tokens: 1000, output_tokens: 100 } },
    );
    const world = rig.world({ server });
    const run = async (extra: string[]) => {
      const frames: Frame[] = [];
      const result = await runClaudePrint({
        command: claudeBin,
        args: [...args, ...extra],
        stdin: 'hi',
        cwd: world.cwd,
        env: world.env,
        onFrame: (f) => frames.push(f),
      });
      return { sessionId: result.sessionId!, frame: frames.filter((f) => f.type === 'result').pop()! };
    };
    const first = await run([]);
    const second = await run(['--resume', first.sessionId]);
    const fork = await run(['--fork-session', '--resume', first.sessionId]);
    const one = first.frame.total_cost_usd as number;
    expect(one).toBeGreaterThan(0);
    expect(second.frame.total_cost_usd).toBeCloseTo(2 * one, 10);
    expect(fork.frame.total_cost_usd).toBeCloseTo(3 * one, 10);
    for (const { frame } of [second, fork]) {
      expect((frame.usage as { input_tokens: number }).input_tokens).toBe(1000);
      expect(runCost(frame)).toBeCloseTo(one, 10);
      expect(usageOfResult(frame).cost_usd).toBeCloseTo(one, 10);
    }
    failing = true;
    const failed = await run(['--fork-session', '--resume', first.sessionId]);
    expect(failed.frame.is_error).toBe(true);
    expect(failed.frame.total_cost_usd).toBeCloseTo(2 * one, 10);
    expect(failed.frame.model_usage_since_last_result).toEqual({});
    expect(runCost(failed.frame)).toBe(0);
  });
});
