/**
 * A `kill -9` of the relay under `ccc --supervisor` with the real claude: the terminal comes back
 * as it was, the user reads there why the session ended, and claude does not outlive it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { findRelay } from '../../src/pty/native-relay.js';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { descendants, isAlive } from '../support/process-tree.js';

describe('the relay killed under a supervised session', () => {
  it('restores the terminal, says on it why the session ended, and ends claude', async ({ rig }) => {
    expect(findRelay()).toBeDefined();
    const { world } = await rig.start(() => ({ text: 'hi' }));
    const script = `stty -g > before.txt; "${process.execPath}" "${cccBin}" --supervisor; echo "CCC-EXIT=$?"; stty -g > after.txt; echo STTY-SAVED; sleep 5`;
    const h = rig.pty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    const processes = descendants(h.pty.pid);
    const command = (pid: number) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return ''; // gone since (claude's short-lived helpers)
      }
    };
    // Breadth first: ccc's child is the relay; the relay's child is its copy that leads claude's session.
    const relay = processes.find((pid) => command(pid).includes('ccc-relay'))!;
    const claude = processes.filter((pid) => command(pid).includes('claude')).at(-1)!;
    process.kill(relay, 'SIGKILL');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(
      /ccc: the session ended: its byte relay \(ccc-relay\) was killed by SIGKILL, and the agent with it \(its terminal closed\)\.\s+CCC-EXIT=137/,
    );
    const stty = (name: string) => fs.readFileSync(path.join(world.cwd, name), 'utf8');
    expect(stty('after.txt')).toBe(stty('before.txt'));
    await expect.poll(() => isAlive(claude), { timeout: 10_000 }).toBe(false);
  });
});
