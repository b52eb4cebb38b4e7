/**
 * What the launched process gets and what ccc gives back, with a tiny stand-in for claude that
 * records its arguments and environment: exit codes, --settings, credentials, signals.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';

const FAKE_CLAUDE = `#!/usr/bin/env node
const fs = require('node:fs');
const pick = ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'KEEP_ME'];
const env = Object.fromEntries(pick.filter((k) => k in process.env).map((k) => [k, process.env[k]]));
fs.writeFileSync(process.env.FAKE_RECORD, JSON.stringify({ argv: process.argv.slice(2), env }));
if (process.argv.includes('--wait-for-signal')) {
  process.on('SIGTERM', () => { fs.appendFileSync(process.env.FAKE_RECORD + '.signal', 'SIGTERM'); process.exit(42); });
  fs.writeFileSync(process.env.FAKE_RECORD + '.ready', '');
  setInterval(() => {}, 1000);
} else {
  process.exit(Number(process.env.FAKE_EXIT || 0));
}
`;

/** A world whose claude is the fake above, with a base config and provider p1; `record` is where the fake writes what it got. */
function fakeClaudeWorld(rig: Rig): { world: ClaudeWorld; record: string } {
  const world = rig.world();
  const fake = path.join(world.root, 'fake-claude');
  fs.writeFileSync(fake, FAKE_CLAUDE, { mode: 0o755 });
  const record = path.join(world.root, 'record.json');
  Object.assign(world.env, { CCC_CLAUDE: fake, FAKE_RECORD: record, KEEP_ME: 'yes', ANTHROPIC_AUTH_TOKEN: 'shell-token-for-something-else' });
  fs.writeFileSync(
    path.join(world.claudeDir, 'ccc.json'),
    JSON.stringify({
      claude: { args: ['--verbose'] },
      settings: { theme: 'dark', permissions: { deny: ['WebFetch'] } },
      providers: { p1: { env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'p1-key' }, settings: { model: 'm1' } } },
    }),
  );
  return { world, record };
}

const recorded = (record: string) => JSON.parse(fs.readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> };

describe('the launched claude process', () => {
  it("gets claude.args, one --settings with base and provider settings, the provider's env, and no foreign credential", async ({ rig }) => {
    const { world, record } = fakeClaudeWorld(rig);
    const result = await runCcc(world, ['p1', '--', '-p', 'hello world']);
    expect(result.code).toBe(0);
    const { argv, env } = recorded(record);
    expect(argv).toEqual(['--settings', JSON.stringify({ theme: 'dark', permissions: { deny: ['WebFetch'] }, model: 'm1' }), '--verbose', '-p', 'hello world']);
    expect(env).toEqual({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'p1-key', KEEP_ME: 'yes' });
  });

  it("exits with claude's exit code", async ({ rig }) => {
    const { world } = fakeClaudeWorld(rig);
    const result = await runCcc(world, ['p1'], { env: { FAKE_EXIT: '7' } });
    expect(result.code).toBe(7);
  });

  it('forwards SIGTERM to claude and exits with what claude exits with', async ({ rig }) => {
    const { world, record } = fakeClaudeWorld(rig);
    const child = spawn(process.execPath, [cccBin, 'p1', '--wait-for-signal'], { cwd: world.cwd, env: world.env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The fake claude writes `.ready` once its SIGTERM handler is installed.
    await vi.waitFor(() => expect(fs.existsSync(`${record}.ready`)).toBe(true), { timeout: 30_000, interval: 50 });
    child.kill('SIGTERM');
    expect(await exited).toBe(42);
    expect(fs.readFileSync(`${record}.signal`, 'utf8')).toBe('SIGTERM');
  });

  it('is not started for `ccc help`, which still lists the commands', async ({ rig }) => {
    const { world, record } = fakeClaudeWorld(rig);
    const result = await runCcc(world, ['help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/supervisor-mode \[options\] \[mode\]/);
    expect(fs.existsSync(record)).toBe(false);
  });
});
