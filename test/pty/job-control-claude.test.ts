/**
 * Job control through ccc with the real claude, on both byte paths: `ccc --supervisor` runs as a
 * job of the user's interactive shell; Ctrl-Z in claude stops the job with the shell's terminal as
 * it was, and fg brings claude's screen back, where the supervised session goes on working.
 */
import { describe, expect } from 'vitest';
import { findRelay } from '../../src/pty/native-relay.js';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { PROMPT, startJobShell } from '../support/job-shell.js';

describe.each(['relay', 'node'] as const)('Ctrl-Z in claude under ccc: %s', (kind) => {
  it('stops ccc as a job of the shell, which has its terminal back; fg brings claude back, redrawn and working', async ({ rig }) => {
    if (kind === 'relay') expect(findRelay()).toBeDefined();
    const { server, world } = await rig.start(
      (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'all good' } } : { text: `agent answer ${r.index}` }),
      { env: kind === 'node' ? { CCC_RELAY: 'off' } : {} },
    );
    const h = await startJobShell({ cwd: world.cwd, env: world.env }, rig.pty);
    h.press(`${process.execPath} ${cccBin} --supervisor\r`);
    await h.waitForScreen(/❯/, 60_000);
    await h.type('draft 1');
    await h.waitForScreen(/❯\sdraft 1/);

    h.press('\x1a');
    await h.waitForScreen(/Claude Code is suspended\.[\s\S]*Stopped[\s\S]*PROMPT\$ \s*$/, 30_000);
    // Typed, echoed and run as in a cooked terminal, Enter included.
    h.press('echo WORKS-$((6*7))\r');
    await h.waitForScreen(/WORKS-42\s+PROMPT\$ \s*$/);

    h.press('fg\r');
    await expect.poll(() => !PROMPT.test(h.screen()) && /❯\sdraft 1/.test(h.screen()), { timeout: 30_000 }).toBe(true);
    await h.type(' more');
    await h.waitForScreen(/❯\sdraft 1 more/);
    h.press('\r');
    await h.waitForScreen(/agent answer 0[\s\S]*review 1 \(claude\): complete/, 60_000);
    expect(server.byKind('agent')[0]!.lastUserText).toContain('draft 1 more');

    await h.waitForScreen(/❯\s*\n/, 10_000);
    await h.type('/exit');
    await h.waitForScreen(/❯\s\/exit/, 10_000);
    h.press('\r');
    await h.waitForScreen(PROMPT, 30_000);
  });
});
