/**
 * `ccc --version` remembers claude's version per executable: a second run does not start
 * claude, and anything that changes the executable (mtime, content, the file itself, the configured
 * command) asks claude again. A broken or unwritable cache never fails `--version`. Runs the built
 * CLI; "claude" is a stand-in script that appends a line to a file each time it runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const version = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let home: TempHome;
let runs: string;
let claude: string;
beforeEach(() => {
  home = makeTempHome();
  runs = path.join(home.root, 'claude-runs');
  claude = writeClaude('1.2.3');
});
afterEach(() => home.cleanup());

/** The stand-in, printing `<v> (Claude Code)`; same length for same-length versions. */
function writeClaude(v: string, file = 'bin/claude'): string {
  const written = home.write(file, `#!/bin/sh\necho run >> '${runs}'\necho '${v} (Claude Code)'\n`);
  fs.chmodSync(written, 0o755);
  return written;
}

const claudeRuns = () => (fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').split('\n').filter(Boolean).length : 0);
const cacheFile = () => path.join(home.claudeDir, 'ccc', 'claude-version.json');

async function cccVersion(env: NodeJS.ProcessEnv = { CCC_CLAUDE: claude }, args = ['--version']) {
  const run = await runProcess(process.execPath, [cccBin, ...args], { cwd: home.project, env: { ...home.env, ...env } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("ccc --version remembers claude's version", () => {
  it('asks claude once; the next runs print the same without starting it (and -v too)', async () => {
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(1);
    expect(fs.existsSync(cacheFile())).toBe(true);
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(await cccVersion(undefined, ['-v'])).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(1);
  });

  it('a changed mtime of the executable asks claude again', async () => {
    await cccVersion();
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(claude, later, later);
    await cccVersion();
    expect(claudeRuns()).toBe(2);
  });

  it('an updated claude with the same size and the old mtime put back is still seen (ctime)', async () => {
    const old = new Date('2020-01-01T00:00:00Z'); // whole seconds: utimes puts it back exactly
    fs.utimesSync(claude, old, old);
    await cccVersion();
    const before = fs.statSync(claude);
    writeClaude('4.5.6');
    fs.utimesSync(claude, old, old);
    const after = fs.statSync(claude);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 4.5.6 (Claude Code)\n`);
    expect(claudeRuns()).toBe(2);
  });

  it('another executable, or another command naming the same one, asks claude again', async () => {
    await cccVersion();
    const other = writeClaude('7.8.9', 'bin2/claude');
    expect(await cccVersion({ CCC_CLAUDE: other })).toBe(`ccc ${version}\nclaude 7.8.9 (Claude Code)\n`);
    const link = path.join(home.root, 'claude-link');
    fs.symlinkSync(claude, link);
    expect(await cccVersion({ CCC_CLAUDE: link })).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(3);
  });

  it('claude.command from ccc.json is the one asked (the config file is read when present)', async () => {
    fs.writeFileSync(path.join(home.claudeDir, 'ccc.json'), JSON.stringify({ claude: { command: claude } }));
    expect(await cccVersion({})).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(await cccVersion({})).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(1);
  });

  it('a corrupt cache file is ignored and replaced', async () => {
    fs.mkdirSync(path.dirname(cacheFile()), { recursive: true });
    fs.writeFileSync(cacheFile(), '{"key": {"command": ');
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(1);
    await cccVersion();
    expect(claudeRuns()).toBe(1);
  });

  it('a cache that cannot be written (ccc/ is a file) still prints the version, asking claude each time', async () => {
    fs.writeFileSync(path.join(home.claudeDir, 'ccc'), 'not a directory');
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(await cccVersion()).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(claudeRuns()).toBe(2);
  });

  it('a config dir that does not exist is not created for it', async () => {
    const missing = path.join(home.root, 'no-such-dir');
    expect(await cccVersion({ CCC_CLAUDE: claude, CCC_CONFIG_DIR: missing })).toBe(`ccc ${version}\nclaude 1.2.3 (Claude Code)\n`);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('a claude that fails is reported and not remembered', async () => {
    const failing = home.write('bin3/claude', `#!/bin/sh\necho run >> '${runs}'\nexit 3\n`);
    fs.chmodSync(failing, 0o755);
    for (let i = 0; i < 2; i++) expect(await cccVersion({ CCC_CLAUDE: failing })).toMatch(/^ccc .*\nclaude \(.*--version failed: Command failed/);
    expect(claudeRuns()).toBe(2);
    expect(fs.existsSync(cacheFile())).toBe(false);
  });
});

describe('a reader that stops early', () => {
  it.each([['--version'], ['-v'], ['--help']])('ccc %s | true: exit 0, nothing on stderr (EPIPE is not an error)', async (flag) => {
    const child = spawn(process.execPath, [cccBin, flag], { cwd: home.project, env: { ...home.env, CCC_CLAUDE: claude }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before ccc writes
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
