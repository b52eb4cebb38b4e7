/**
 * `kill -9` of a headless ccc ends everything it started within 2 s: the reviewer, a
 * rule command, an agent turn, and their own children. The lifeline launcher does it; the exit
 * hook that cleaned up before never runs on SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cccBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { processesIn, writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer, type Scenario } from '../support/model-server.js';
import { descendants, liveOnes } from '../support/process-tree.js';

describe('kill -9 of a headless ccc', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  let ccc: ChildProcess | undefined;
  afterEach(async () => {
    ccc?.kill('SIGKILL');
    await server?.close();
    world?.cleanup();
  });

  async function start(scenario: Scenario, config?: unknown) {
    server = await startModelServer(scenario);
    world = makeClaudeWorld({ modelUrl: server.url });
    writeSupervisorPrompt(world);
    if (config) fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify(config));
    ccc = spawn(process.execPath, [cccBin, '--supervisor', '-p', 'do it'], { cwd: world.cwd, env: world.env, stdio: 'ignore' });
  }

  /** Kills ccc once `ready` holds, then expects its whole tree gone within 2 s and returns the requests the model had by then. */
  async function killAndExpectNothingLeft(ready: () => boolean) {
    await vi.waitFor(() => expect(ready()).toBe(true), { timeout: 60_000, interval: 50 });
    const tree = descendants(ccc!.pid!);
    expect(tree.length).toBeGreaterThan(0);
    const requestsAtKill = server.requests.length;
    ccc!.kill('SIGKILL');
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

  it('during a review that never answers', async () => {
    await start((r) => (r.kind === 'review' ? { hang: true } : { text: 'done' }));
    await killAndExpectNothingLeft(() => server.byKind('review').length > 0);
  });

  it('during an agent turn', async () => {
    await start(() => ({ hang: true }));
    await killAndExpectNothingLeft(() => server.byKind('agent').length > 0);
  });

  it('during a rule command: the command after its sleep never runs', async () => {
    await start(() => ({ text: 'done' }), { supervisor: { checkers: [{ use: 'rule', commands: ['touch STARTED; sleep 60; touch LATE'] }] } });
    await killAndExpectNothingLeft(() => fs.existsSync(path.join(world.cwd, 'STARTED')));
    expect(fs.existsSync(path.join(world.cwd, 'LATE'))).toBe(false); // its shell is dead: `touch LATE` can never run
  });
});
