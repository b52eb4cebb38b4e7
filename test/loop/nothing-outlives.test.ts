/**
 * `kill -9` of a headless ccc ends everything it started within 2 s: the reviewer, a
 * rule command, an agent turn, and their own children. The lifeline launcher does it; the exit
 * hook that cleaned up before never runs on SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { processesIn } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { ModelServer, Scenario } from '../support/model-server.js';
import { descendants, liveOnes } from '../support/process-tree.js';

describe('kill -9 of a headless ccc', () => {
  interface Started {
    server: ModelServer;
    world: ClaudeWorld;
    ccc: ChildProcess;
  }

  /** The headless ccc in a world of the rig; killed after the test if the test did not. */
  async function start(rig: Rig, scenario: Scenario, config?: unknown): Promise<Started> {
    const { server, world } = await rig.start(scenario);
    if (config) fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify(config));
    const ccc = spawn(process.execPath, [cccBin, '--supervisor', '-p', 'do it'], { cwd: world.cwd, env: world.env, stdio: 'ignore' });
    onTestFinished(() => void ccc.kill('SIGKILL'));
    return { server, world, ccc };
  }

  /** Kills ccc once `ready` holds, then expects its whole tree gone within 2 s and that no request reached the model after the kill. */
  async function killAndExpectNothingLeft({ server, world, ccc }: Started, ready: () => boolean) {
    await vi.waitFor(() => expect(ready()).toBe(true), { timeout: 60_000, interval: 50 });
    const tree = descendants(ccc.pid!);
    expect(tree.length).toBeGreaterThan(0);
    const requestsAtKill = server.requests.length;
    ccc.kill('SIGKILL');
    await vi.waitFor(
      () => {
        expect(liveOnes(tree)).toEqual([]);
        expect(processesIn(world)).toEqual([]);
      },
      { timeout: 2000, interval: 20 },
    );
    // Everything that could still call the model is gone: nothing arrived after the kill.
    expect(server.requests.length).toBe(requestsAtKill);
  }

  it('during a review that never answers', async ({ rig }) => {
    const started = await start(rig, (r) => (r.kind === 'review' ? { hang: true } : { text: 'done' }));
    await killAndExpectNothingLeft(started, () => started.server.byKind('review').length > 0);
  });

  it('during an agent turn', async ({ rig }) => {
    const started = await start(rig, () => ({ hang: true }));
    await killAndExpectNothingLeft(started, () => started.server.byKind('agent').length > 0);
  });

  it('during a rule command: the command after its sleep never runs', async ({ rig }) => {
    const started = await start(rig, () => ({ text: 'done' }), {
      supervisor: { checkers: [{ use: 'rule', commands: ['touch STARTED; sleep 60; touch LATE'] }] },
    });
    const { cwd } = started.world;
    await killAndExpectNothingLeft(started, () => fs.existsSync(path.join(cwd, 'STARTED')));
    expect(fs.existsSync(path.join(cwd, 'LATE'))).toBe(false); // its shell is dead: `touch LATE` can never run
  });
});
