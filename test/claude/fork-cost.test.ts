/**
 * What a review forked from an interactive session costs, as the real claude reports it (pinned on
 * 2.1.330; src/claude/usage.ts reads it). The interactive session's own cost is not carried into
 * the fork: the fork's `total_cost_usd` and `model_usage_since_last_result` are its own requests.
 * A session whose context is full is compacted by the fork before it answers (two summary
 * requests): those are counted in the fork's cost and its `modelUsage`, but its `usage` has only
 * the answer's tokens. So ccc takes a run's tokens from `model_usage_since_last_result` too, and a
 * review's tokens and cost describe the same requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runClaudePrint } from '../../src/claude/claude-print.js';
import { usageOfResult } from '../../src/claude/usage.js';
import type { Frame } from '../../src/frames/frame.js';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';

const COMPACTION = /Respond with TEXT ONLY/;

describe('the real claude: the cost of a review forked from an interactive session', () => {
  /** One interactive turn of `agentTokens` input tokens, then a fork of it in print mode. */
  async function forkAfterTurn(rig: Rig, agentTokens: number) {
    const scenario = (r: RecordedRequest): Reply => {
      if (COMPACTION.test(r.lastUserText)) return { text: 'summary', usage: { input_tokens: 50_000, output_tokens: 1000 } };
      if (r.lastUserText.includes('first task')) return { text: 'done', usage: { input_tokens: agentTokens, output_tokens: 0 } };
      return { text: 'the verdict', usage: { input_tokens: 10, output_tokens: 5 } };
    };
    const server = await rig.server(scenario);
    const world = rig.world({ server });
    const lines = path.join(world.cwd, 'lines.jsonl');
    const status = path.join(world.cwd, 'status.sh');
    fs.writeFileSync(status, `#!/bin/sh\n{ cat | tr -d '\\n'; echo; } >> '${lines}'\necho MY-STATUS-LINE\n`, { mode: 0o755 });
    const h = rig.pty(claudeBin, ['--settings', JSON.stringify({ statusLine: { type: 'command', command: status } })], { cwd: world.cwd, env: world.env });
    try {
      const last = () => JSON.parse(fs.readFileSync(lines, 'utf8').trim().split('\n').at(-1)!) as { session_id: string; cost: { total_cost_usd: number } };
      await h.waitForScreen(/MY-STATUS-LINE/, 60_000);
      await h.type('first task');
      h.press('\r');
      await expect.poll(() => last().cost.total_cost_usd, { timeout: 60_000 }).toBeGreaterThan(0);
      const frames: Frame[] = [];
      const args = ['-p', '--output-format', 'stream-json', '--verbose', '--resume', last().session_id, '--fork-session'];
      await runClaudePrint({ command: claudeBin, args, stdin: 'THE REVIEW', cwd: world.cwd, env: world.env, onFrame: (f) => frames.push(f) });
      return { server, agentCost: last().cost.total_cost_usd, result: frames.filter((f) => f.type === 'result').pop()! };
    } finally {
      h.kill();
    }
  }

  it("a fork costs its own requests, not the interactive session's", async ({ rig }) => {
    const { agentCost, result } = await forkAfterTurn(rig, 100_000);
    const perInput = agentCost / 100_000;
    expect(result.total_cost_usd).toBeCloseTo(perInput * (10 + 5 * 5), 9);
    expect(usageOfResult(result)).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(usageOfResult(result).cost_usd).toBeCloseTo(perInput * (10 + 5 * 5), 9);
  }, 180_000);

  it("a fork of a full session compacts first: its cost and modelUsage count that, its usage only the answer; ccc's tokens are the cost's", async ({ rig }) => {
    const { server, agentCost, result } = await forkAfterTurn(rig, 1_000_000);
    const perInput = agentCost / 1_000_000;
    const compactions = server.requests.filter((r) => COMPACTION.test(r.lastUserText)).length;
    expect(compactions).toBeGreaterThanOrEqual(1);
    const spent = perInput * (compactions * (50_000 + 5 * 1000) + 10 + 5 * 5);
    expect(result.total_cost_usd).toBeCloseTo(spent, 9);
    expect(result.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(usageOfResult(result)).toMatchObject({ input_tokens: compactions * 50_000 + 10, output_tokens: compactions * 1000 + 5 });
    expect(usageOfResult(result).cost_usd).toBeCloseTo(spent, 9);
  }, 180_000);
});
