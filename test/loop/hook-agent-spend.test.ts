/**
 * The standalone hook (`ccc hook install`, a claude session ccc did not start) counts the agent's
 * own turns toward `supervisor.max_cost_usd`: the status line the install puts in records claude's
 * running cost per session, and still shows the user's own line. The agent's turns here cost far
 * more than the cap and the reviews far less, so only the agent's spend can reach it: the session
 * is wound down (one last, unreviewed turn), and the log says the cost cap was why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { recordedAgentCost } from '../../src/stop/status-line.js';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import type { Reply } from '../support/model-server.js';

// Well over the cap at any price of the pinned claude's model, well inside its context window (a review must not need compacting).
const AGENT_USAGE = { input_tokens: 300_000, output_tokens: 1000 };
const REVIEW_USAGE = { input_tokens: 100, output_tokens: 10 };

/** Resolves once the status line has recorded some agent spend for a session (or after 2 minutes, for the test to fail on). */
async function agentSpendRecorded(dir: string): Promise<void> {
  const recorded = () => {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
    expect(files.some((f) => recordedAgentCost(path.join(dir, f)) > 0)).toBe(true);
  };
  // The model server's reply waits on it: a miss resolves too, and the test's own assertions fail.
  await vi.waitFor(recorded, { timeout: 120_000, interval: 100 }).catch(() => undefined);
}

describe("the standalone hook counts the agent's own spend", () => {
  it('agent turns alone over the cap: wound down, the log says the cost cap; the user status line still shows', async ({ rig }) => {
    let statusLines = '';
    const server = await rig.server((r): Reply => {
      if (r.kind === 'review') return { verdict: { completed: false, feedback: 'add the tests' }, usage: REVIEW_USAGE };
      // claude runs the status line after the Stop hook: the second turn waits until it has counted the first.
      if (r.index === 1) return { text: 'still working', usage: AGENT_USAGE, until: agentSpendRecorded(statusLines) };
      return { text: `working (${r.index})`, usage: AGENT_USAGE };
    });
    const world = rig.world({ server });
    statusLines = path.join(world.claudeDir, 'ccc', 'status-lines');
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.claudeDir, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: 'echo MY-OWN-STATUS' } }));
    const install = await runCcc(world, ['hook', 'install']);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/status line/);
    const env = { ...world.env, CCC_SUPERVISOR_MAX_COST_USD: '0.5', CCC_SUPERVISOR_MAX_ITERATIONS: '4' };
    const h = rig.pty(claudeBin, [], { cwd: world.cwd, env });
    await h.waitForScreen(/MY-OWN-STATUS/, 60_000);
    await h.type('write parse()');
    h.press('\r');
    await expect.poll(() => (fs.existsSync(path.join(world.claudeDir, 'ccc')) ? readLog(world) : ''), { timeout: 180_000 }).toMatch(/wind-down turn ended/);
    const log = readLog(world);
    expect(log).toMatch(/cost cap: the cost cap of \$0\.5 was reached \(\$[0-9.]+ spent by the agent and the reviewer\)/);
    expect(server.byKind('agent').filter((r) => r.lastUserText.includes('has reached a limit (the cost cap')).length).toBeGreaterThanOrEqual(1);
    expect(server.byKind('review').length).toBeLessThanOrEqual(2);
    expect(h.screen()).toMatch(/MY-OWN-STATUS/);
  }, 240_000);
});
