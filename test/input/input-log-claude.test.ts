/**
 * A 1 MiB paste into a supervised session with the real claude: every byte reaches the input log
 * (and claude: the byte path drops none of it when claude reads slower than the paste arrives).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

describe.each(['relay', 'node'] as const)('the input log: %s', (kind) => {
  it('holds the whole paste', async ({ rig }) => {
    const { world } = await rig.start(() => ({ text: 'hi' }), { env: kind === 'node' ? { CCC_RELAY: 'off' } : {} });
    const script = `"${process.execPath}" "${cccBin}" --supervisor; echo "CCC-EXIT=$?"; sleep 5`;
    const h = rig.pty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    const body = Array.from({ length: 16384 }, (_, i) => `line ${String(i).padStart(5, '0')} of the paste ${'x'.repeat(42)}\n`).join('');
    const paste = `\x1b[200~${body}\x1b[201~`;
    expect(paste.length).toBeGreaterThan(1024 * 1024);
    h.press(paste);
    await h.waitForScreen(/Pasted text/, 120_000);
    h.press('\x03'); // clears the prompt
    h.press('\x03'); // and again: exit
    await h.waitForOutput(/CCC-EXIT=/, 60_000);
    const dir = path.join(world.claudeDir, 'ccc');
    const log = fs.readdirSync(dir).find((f) => f.startsWith('input-'))!;
    const recorded = fs.readFileSync(path.join(dir, log), 'utf8');
    expect(recorded.length).toBeGreaterThanOrEqual(paste.length);
    expect(recorded.includes(paste)).toBe(true);
    expect(recorded).not.toContain('not recorded here');
  }, 240_000);

  it("records what was typed, not the terminal's replies to claude's queries", async ({ rig }) => {
    const { world } = await rig.start(() => ({ text: 'hi' }), { env: kind === 'node' ? { CCC_RELAY: 'off' } : {} });
    const script = `"${process.execPath}" "${cccBin}" --supervisor; echo "CCC-EXIT=$?"; sleep 5`;
    const h = rig.pty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    // What a terminal answers to device attributes, a cursor report and the background colour, between keys.
    h.press('typed-one');
    h.press('\x1b[?62;22c\x1b[24;80R\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\');
    h.press('-typed-two');
    await h.waitForScreen(/typed-one-typed-two/, 60_000);
    h.press('\x03');
    h.press('\x03');
    await h.waitForOutput(/CCC-EXIT=/, 60_000);
    const dir = path.join(world.claudeDir, 'ccc');
    const log = fs.readdirSync(dir).find((f) => f.startsWith('input-'))!;
    const recorded = fs.readFileSync(path.join(dir, log), 'utf8');
    expect(recorded).toContain('typed-one-typed-two');
    expect(recorded).not.toMatch(/\x1b\[\?62|rgb:|\x1b\[24;80R/);
  }, 240_000);
});
