/**
 * ccc-lifeline (native/lifeline.c) on its own: the command's process group dies when the lifeline
 * on fd 3 closes (what ccc's death does), and otherwise the launcher is invisible.
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findLifeline } from '../../src/process/lifeline.js';
import { liveGroupMembers } from '../support/process-tree.js';
import { needs } from '../support/tools.js';

const lifeline = findLifeline();

describe('ccc-lifeline', () => {
  // The build compiles it where a C compiler is: without one, these fail with the install line.
  beforeEach(({ skip }) => {
    needs({ skip }, 'cc');
    expect(lifeline, 'ccc-lifeline is not built: npm run build compiles it').toBeDefined();
  });

  const start = (script: string) => spawn(lifeline!, ['--', 'sh', '-c', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });

  it('kills the whole group, children included, when its lifeline closes', async () => {
    const child = start('sleep 60 & sleep 60 & echo started; wait');
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    const pgid = child.pid!;
    expect(liveGroupMembers(pgid).length).toBeGreaterThanOrEqual(3); // the launcher, sh, two sleeps
    const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve(signal)));
    (child.stdio[3] as Socket).destroy(); // ccc's end goes away
    expect(await closed).toBe('SIGKILL');
    await vi.waitFor(() => expect(liveGroupMembers(pgid)).toEqual([]), { timeout: 2000, interval: 20 });
  });

  it('ends the way its command ended: the exit code, or the same signal', async () => {
    const ended = (script: string) => new Promise((resolve) => start(script).once('close', (code, signal) => resolve({ code, signal })));
    expect(await ended('exit 7')).toEqual({ code: 7, signal: null });
    expect(await ended('kill -TERM $$')).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('refuses to run without a lifeline on fd 3', async () => {
    const child = spawn(lifeline!, ['--', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(125);
    expect(stderr).toContain('fd 3');
  });
});
