/**
 * Pins what the real claude does to the terminal's title (docs/design/claude-facts.md), which ccc's
 * verdict in the title depends on (src/loop/review-status.ts): claude titles the terminal `✳ Claude
 * Code` at its start, asks the model for a name of the session at the first prompt and titles the
 * terminal with it, writes a spinner title (`◐`/`◑`) about every second while it works and `✳ <name>`
 * once its turn is over, after the Stop hook answered; idle, it writes none (a resize, focus changes).
 * Under `CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1` (documented among its environment variables) it writes
 * no title at all and does not ask for the session's name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';

/** Every OSC 0, 1 or 2 title in `output`, in order. */
function titles(output: Buffer): string[] {
  return [...output.toString('utf8').matchAll(/\x1b\][012];([^\x07\x1b]*)(?:\x07|\x1b\\)/g)].map((m) => m[1]!);
}

describe("the real claude and the terminal's title", () => {
  /** One turn of plain claude (answered after 2.5 s, the session named `Parser bug fix`) whose Stop hook answers after 1 s. */
  async function oneTurn(rig: Rig, env: NodeJS.ProcessEnv) {
    const server = await rig.server((r) => ({ text: `agent answer ${r.index}`, delayMs: 2500 }), {
      background: (r) => (r.body.output_config?.format ? { text: JSON.stringify({ title: 'Parser bug fix' }) } : { text: 'ok' }),
    });
    const world = rig.world({ server, env });
    // The session's name is background traffic: the shared world turns it off.
    delete world.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC;
    const hook = path.join(world.root, 'hook.sh');
    const answer = path.join(world.root, 'answer.json');
    fs.writeFileSync(answer, JSON.stringify({ systemMessage: 'HOOK-ANSWERED' }));
    fs.writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\nsleep 1\ncat '${answer}'\n`, { mode: 0o755 });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
    const h = rig.pty(claudeBin, ['--settings', JSON.stringify(settings)], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await h.type('fix the parser bug please\r');
    await h.waitForScreen(/Stop says: HOOK-ANSWERED/, 60_000);
    return { server, world, h };
  }

  it("titles it at its start, with the spinner while it works, and with the session's name once the Stop hook answered; none while idle", async ({ rig }) => {
    const { server, h: pty } = await oneTurn(rig, {});
    await expect.poll(() => titles(pty.output()).at(-1), { timeout: 30_000 }).toBe('✳ Parser bug fix');
    const seen = titles(pty.output());
    expect(seen[0]).toBe('✳ Claude Code');
    expect(seen.slice(1, -1).length).toBeGreaterThanOrEqual(2);
    for (const title of seen.slice(1, -1)) expect(title).toMatch(/^[◐◑] (Claude Code|Parser bug fix)$/);
    expect(server.byKind('background').filter((r) => r.body.output_config?.format)).toHaveLength(1);
    // Idle: a resize (redrawn at the new width) and focus changes bring no title.
    pty.resize(90, 30);
    await pty.waitForScreen(new RegExp(`^─{90}$`, 'm'), 10_000);
    pty.press('\x1b[I');
    pty.press('\x1b[O');
    await pty.type('x');
    await pty.waitForScreen(/❯\sx/, 10_000);
    expect(titles(pty.output())).toEqual(seen);
  }, 120_000);

  it("writes none at all under CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1, and does not ask the model for the session's name", async ({ rig }) => {
    const { server, h: pty } = await oneTurn(rig, { CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1' });
    await pty.waitForScreen(/Worked for|Brewed for|Cooked for|Churned for|Baked for|for \d+s · done/, 30_000);
    expect(titles(pty.output())).toEqual([]);
    expect(server.byKind('background').filter((r) => r.body.output_config?.format)).toEqual([]);
  }, 120_000);
});
