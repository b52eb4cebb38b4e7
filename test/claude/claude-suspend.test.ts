/**
 * What the real claude does on Ctrl-Z, which ccc's job control relies on (native/relay.c,
 * src/pty/job-shell.ts): it writes "Claude Code is suspended", leaves raw mode and sends SIGTSTP to
 * its own process group (`kill(0, SIGTSTP)`, seen with strace on 2.1.330), then waits for SIGCONT,
 * on which it takes raw mode again and redraws. As a job of a shell with job control it stops
 * ("Stopped", not "Stopped (signal)": SIGTSTP); as the leader of its pty's session the kernel
 * would discard that SIGTSTP, which is why ccc runs it as a job.
 */
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { PROMPT, outputAfter, startJobShell } from '../support/job-shell.js';
import type { PtyHarness } from '../support/pty-harness.js';

/** claude's screen is back where the shell's prompt was. */
const redrawn = (h: PtyHarness) => !PROMPT.test(h.screen()) && /❯\sdraft 1/.test(h.screen());

describe('claude on Ctrl-Z', () => {
  it('stops its process group with SIGTSTP, and on fg (SIGCONT) takes the terminal again and redraws', async ({ rig }) => {
    const server = await rig.server(() => ({ text: 'hi' }));
    const world = rig.world({ server });
    const h = await startJobShell({ cwd: world.cwd, env: world.env }, rig.pty);
    h.press(`${claudeBin}\r`);
    await h.waitForScreen(/❯/, 60_000);
    await h.type('draft 1');
    await h.waitForScreen(/❯\sdraft 1/);
    h.press('\x1a');
    await h.waitForScreen(/Claude Code is suspended\. Run `fg` to bring it back\.[\s\S]*Stopped[\s\S]*PROMPT\$ \s*$/);
    expect(outputAfter(h, 'Stopped').split('\n')[0]).not.toContain('(signal)');
    h.press('fg\r');
    // Its own redraw: the prompt with what was typed in place of the shell's, and keys reach it one by one again.
    await expect.poll(() => redrawn(h), { timeout: 30_000 }).toBe(true);
    await h.type(' more');
    await h.waitForScreen(/❯\sdraft 1 more/);
    h.press('\x03');
    h.press('\x03');
    await h.waitForScreen(PROMPT, 30_000);
  });
});
