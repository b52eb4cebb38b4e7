/**
 * A 1 MiB paste into a supervised session with the real claude: every byte reaches the input log
 * (and claude: the byte path drops none of it when claude reads slower than the paste arrives).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { startPty, type PtyHarness } from '../support/pty-harness.js';

describe.each(['relay', 'node'] as const)('the input log: %s', (kind) => {
  let server: ModelServer | undefined;
  let world: ClaudeWorld | undefined;
  let h: PtyHarness | undefined;
  afterEach(async () => {
    h?.kill();
    await server?.close();
    world?.cleanup();
  });

  it('holds the whole paste', async () => {
    server = await startModelServer(() => ({ text: 'hi' }));
    world = makeClaudeWorld({ modelUrl: server.url, env: kind === 'node' ? { CCC_RELAY: 'off' } : {} });
    writeSupervisorPrompt(world);
    const script = `"${process.execPath}" "${cccBin}" --supervisor; echo "CCC-EXIT=$?"; sleep 5`;
    h = startPty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
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

  it("records what was typed, not the terminal's replies to claude's queries", async () => {
    server = await startModelServer(() => ({ text: 'hi' }));
    world = makeClaudeWorld({ modelUrl: server.url, env: kind === 'node' ? { CCC_RELAY: 'off' } : {} });
    writeSupervisorPrompt(world);
    const script = `"${process.execPath}" "${cccBin}" --supervisor; echo "CCC-EXIT=$?"; sleep 5`;
    h = startPty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
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
