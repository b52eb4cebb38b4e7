/**
 * What a run spent, for its last line (`end`'s `spent_usd` and `wind_down_usd`): everything the
 * agent's turns and the reviews cost, and of it what the wind-down turn cost, counted from the
 * `wind-down` event to the answer of the stop that ends that turn, not what the user does after
 * it in the same interactive session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { NO_USAGE } from '../../src/claude/usage.js';
import { event } from '../../src/loop/events.js';
import { reviewSummary } from '../../src/loop/review-summary.js';
import { SessionCore } from '../../src/sessions/session-core.js';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-run-spend-')));
  fs.mkdirSync(path.join(root, 'project'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function session(): Promise<SessionCore> {
  const env = { HOME: root, CCC_CONFIG_DIR: path.join(root, 'config'), PATH: process.env.PATH };
  const resolved = await loadConfig({ cwd: path.join(root, 'project'), env });
  return new SessionCore({ resolved, pipeline: [], cwd: path.join(root, 'project'), env, claudeArgs: [] });
}

describe("the run's spend at its end", () => {
  it('without a wind-down: what it spent in all', async () => {
    const s = await session();
    s.addCost(0.5);
    expect(s.endSpend()).toEqual({ spent_usd: 0.5 });
    await s.close();
  });

  it("headless: the wind-down turn's cost is what came between the wind-down and the run's stop", async () => {
    const s = await session();
    s.addCost(1);
    s.emit(event({ kind: 'wind-down', reason: 'limit', message: 'the iteration limit (3) was reached' }));
    s.emit(event({ kind: 'phase', phase: 'agent' }));
    s.addCost(0.25);
    s.emit(event({ kind: 'stopped', reason: 'limit', message: 'the iteration limit (3) was reached' }));
    expect(s.endSpend()).toEqual({ spent_usd: 1.25, wind_down_usd: 0.25 });
    await s.close();
  });

  it('interactive: the turns the user goes on with after the wind-down are not its cost', async () => {
    const s = await session();
    s.addCost(1);
    s.emit(event({ kind: 'wind-down', reason: 'cost-cap', message: 'the cost cap of $1 was reached' }));
    s.emit(event({ kind: 'phase', phase: 'agent' }));
    s.addCost(0.25);
    s.emit(event({ kind: 'phase', phase: 'idle' }));
    s.addCost(2);
    expect(s.endSpend()).toEqual({ spent_usd: 3.25, wind_down_usd: 0.25 });
    await s.close();
  });

  it('the last line says both, and nothing of a spend it does not know', () => {
    expect(reviewSummary(2, NO_USAGE, { spent_usd: 1.25, wind_down_usd: 0.25 })).toBe('2 reviews; spent $1.250 in all, $0.250 of it on the wind-down turn');
    expect(reviewSummary(0, NO_USAGE, { spent_usd: 0.004 })).toBe('spent $0.0040 in all');
    expect(reviewSummary(2, NO_USAGE, {})).toBe('2 reviews');
    expect(reviewSummary(0, NO_USAGE)).toBeUndefined();
  });
});
