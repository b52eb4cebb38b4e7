/**
 * Pins how the real claude counts the cost of a resumed session, which makes a review's reported
 * cost right: a run's `total_cost_usd` includes the cost its session (or the session it forks)
 * had before, restored from the `cost-state` entry claude writes into the transcript, while the
 * result's `usage` holds only the run's own tokens. ccc takes the restored cost off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { restoredCostUsd } from '../../src/claude/restored-cost.js';
import { ownUsage, usageOfResult } from '../../src/claude/usage.js';
import type { Frame } from '../../src/frames/frame.js';
import { transcriptPathFor } from '../../src/frames/transcript.js';
import { claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

describe('the cost of a resumed claude run', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  it("includes the resumed or forked session's earlier cost; the transcript's cost-state says how much", async () => {
    server = await startModelServer(() => ({ text: 'ok', usage: { input_tokens: 40, cache_read_input_tokens: 12000, cache_creation_input_tokens: 300, output_tokens: 60 } }));
    world = makeClaudeWorld({ modelUrl: server.url });
    const run = async (args: string[]) => {
      const r = await runProcess(claudeBin, ['-p', 'hello', '--output-format', 'stream-json', '--verbose', ...args], { cwd: world.cwd, env: world.env });
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout).find((f) => f.type === 'result') as unknown as Frame & { session_id: string; total_cost_usd: number };
    };
    const first = await run([]);
    const one = first.total_cost_usd;
    expect(one).toBeGreaterThan(0);
    expect(await restoredCostUsd(transcriptPathFor(world.env, world.cwd, first.session_id), first.session_id)).toBe(one);

    const fork = await run(['--fork-session', '--resume', first.session_id]);
    expect(fork.total_cost_usd).toBeCloseTo(2 * one, 10);
    expect(usageOfResult(fork).output_tokens).toBe(60); // the run's own tokens
    expect(ownUsage(usageOfResult(fork), one).cost_usd).toBeCloseTo(one, 10);

    const again = await run(['--resume', fork.session_id]);
    expect(again.total_cost_usd).toBeCloseTo(3 * one, 10);
    expect(await restoredCostUsd(transcriptPathFor(world.env, world.cwd, fork.session_id), fork.session_id)).toBeCloseTo(3 * one, 10);
    expect(await restoredCostUsd(transcriptPathFor(world.env, world.cwd, 'no-such-session'), 'no-such-session')).toBe(0);
  }, 60_000);
});
