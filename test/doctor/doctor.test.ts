/**
 * `ccc doctor` as a user runs it (the built CLI, the real claude for its version): what is there,
 * what is missing with its fix, exit 0 only when a supervised session has everything it needs.
 * The relay and lifeline of an installed package (prebuilt, compiled, missing) are checked by the
 * package test, where there is no dist/relay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { DoctorReport } from '../../src/doctor/run-doctor.js';
import { claudeBin, repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';
import { codexBin, codexEnv } from '../support/codex-env.js';
import { TESTED_CODEX } from '../../src/doctor/codex-checks.js';
import { MINIMUM_CLAUDE, NEWEST_TESTED_CLAUDE } from '../../src/claude/claude-support.js';

async function doctorJson(world: ClaudeWorld, env?: NodeJS.ProcessEnv) {
  const run = await runCcc(world, ['doctor', '--json'], { env });
  const report = JSON.parse(run.stdout) as DoctorReport;
  return { code: run.code, report, check: (id: string) => report.checks.find((c) => c.id === id)! };
}

describe('ccc doctor', () => {
  it('everything a supervised session needs is here: exit 0, claude with its version, the relay and the lifeline of this checkout', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const run = await runCcc(world, ['doctor']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `✓ claude            ${NEWEST_TESTED_CLAUDE}, ${claudeBin} (supported: ${MINIMUM_CLAUDE} to ${NEWEST_TESTED_CLAUDE}, tested)\n`,
    );
    expect(run.stdout).toContain(`✓ relay             ${path.join(repoRoot, 'dist', 'relay', 'ccc-relay')} (built with the package on this machine)`);
    expect(run.stdout).toContain(`✓ lifeline          ${path.join(repoRoot, 'dist', 'relay', 'ccc-lifeline')}`);
    expect(run.stdout).toContain(`✓ config directory  ${world.claudeDir}, writable`);
    expect(run.stdout).toMatch(/^· MCP store .*mcp\.jsonl, not created yet/m);
    expect(run.stdout).toMatch(/^· Stop hook +not installed .*`ccc hook install` adds it$/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Everything a supervised session needs is here.');
  });

  it('lacking claude and SUPERVISOR.md: exit 1, each with its fix, in text and in --json', async ({ rig }) => {
    const world = rig.world({ env: { CCC_CLAUDE: path.join('/nonexistent', 'claude') } });
    const text = await runCcc(world, ['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^✗ claude +not found \("\/nonexistent\/claude"\)\n +fix: install Claude Code/m);
    expect(text.stdout).toMatch(/^✗ SUPERVISOR\.md +none: no SUPERVISOR\.md in .*\n +fix: run `ccc init` in the project$/m);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('A supervised session here lacks: claude, SUPERVISOR.md.');
    const { code, report, check } = await doctorJson(world);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(check('claude')).toMatchObject({ status: 'missing', needed: true, fix: expect.stringContaining('CCC_CLAUDE') });
    expect(check('supervisor-prompt')).toMatchObject({ status: 'missing', needed: true });
    expect(check('lifeline')).toMatchObject({ status: 'ok', needed: true });
  });

  it('a claude that fails to run: ccc doctor shows what it said on stderr, inert', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const broken = path.join(world.root, 'claude');
    fs.writeFileSync(broken, '#!/bin/sh\necho "starting" >&2\nprintf \'claude: cannot load \\033[31mlibfoo.so\\033[0m: no such file\\n\' >&2\nexit 127\n', {
      mode: 0o755,
    });
    const run = await runCcc(world, ['doctor'], { env: { CCC_CLAUDE: broken } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^✗ claude +.* does not run: \(.*--version failed: Command failed: .*: claude: cannot load \[31mlibfoo\.so\[0m: no such file\)/m,
    );
    expect(run.stdout).not.toContain('\x1b');
  });

  it('a SUPERVISOR.md that is a directory: the fix is to move or remove it, not `ccc init` (which refuses to write over it)', async ({ rig }) => {
    const world = rig.world();
    const local = path.join(world.cwd, 'SUPERVISOR.md');
    fs.mkdirSync(local);
    const { code, check } = await doctorJson(world);
    expect(code).toBe(1);
    expect(check('supervisor-prompt')).toMatchObject({ status: 'missing', detail: expect.stringContaining('is a directory') });
    expect(check('supervisor-prompt').fix).toMatch(new RegExp(`^move or remove ${local.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `));
  });

  it('a config file that does not load is missing with what is wrong', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), '{ "supervisor": { "max_iterations": "many" } }');
    const { code, check } = await doctorJson(world);
    expect(code).toBe(1);
    expect(check('config')).toMatchObject({ status: 'missing', detail: expect.stringContaining('max_iterations') });
  });

  it('the Stop hook once installed, the detected test command, and what the reviewer may run with a rule checker and an allow rule', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'node test.js' } }));
    fs.writeFileSync(
      path.join(world.cwd, '.cccrc.json'),
      JSON.stringify({ supervisor: { checkers: ['claude', { use: 'rule', commands: ['make lint'] }], reviewer: { allow: ['Bash(npm run e2e:*)'] } } }),
    );
    expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
    const { code, check } = await doctorJson(world);
    expect(code).toBe(0);
    expect(check('stop-hook')).toMatchObject({ status: 'ok', detail: `installed in ${path.join(world.claudeDir, 'settings.json')}` });
    expect(check('test-command').detail).toBe(`npm test (package.json has a test script) in ${world.cwd}; the reviewer may run it`);
    expect(check('reviewer').detail).toMatch(
      /; npm test \(detected: package\.json has a test script \(no arguments: .*\)\); make lint \(a rule checker runs it\); npm run e2e … \(supervisor\.reviewer\.allow: Bash\(npm run e2e:\*\)\)$/,
    );
  });

  it('a cached helper that does not match what ccc built: replaced (✓, exit 0); with nothing to replace it from, ✗ and exit 1', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    // An installed package's layout (no dist/relay): its helpers live under the config dir.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-doctor-pkg-'));
    try {
      fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, 'package.json'));
      fs.cpSync(path.join(repoRoot, 'native'), path.join(root, 'native'), { recursive: true });
      fs.cpSync(path.join(repoRoot, 'dist'), path.join(root, 'dist'), { recursive: true, filter: (from) => !from.includes(`${path.sep}dist${path.sep}relay`) });
      fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
      const doctor = (env: NodeJS.ProcessEnv = {}) =>
        runProcess(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'doctor'], { cwd: world.cwd, env: { ...world.env, ...env } });
      expect((await doctor()).code).toBe(0); // sets them up from the prebuilt
      const cache = path.join(world.claudeDir, 'ccc', 'native');
      const helpers = () => fs.readdirSync(cache).flatMap((key) => ['ccc-relay', 'ccc-lifeline'].map((name) => path.join(cache, key, name)));
      for (const file of helpers()) fs.truncateSync(file, 512);
      const repaired = await doctor();
      expect(repaired.code).toBe(0);
      expect(repaired.stdout).toMatch(
        /^✓ relay +\S+\/ccc-relay \(the package's prebuilt for \S+, set up now, replacing one that did not match what ccc built: .*\)$/m,
      );
      for (const file of helpers()) expect(fs.statSync(file).size).toBeGreaterThan(512);
      for (const file of helpers()) fs.truncateSync(file, 512);
      fs.rmSync(path.join(root, 'dist', 'prebuilt', `${process.platform}-${process.arch}`), { recursive: true });
      const broken = await doctor({ CC: '/nonexistent/cc' });
      expect(broken.code).toBe(1);
      expect(broken.stdout).toMatch(/^✗ relay +\S+\/ccc-relay does not match what ccc built .*; none is prebuilt .*\n +fix: install a C compiler/m);
      expect(broken.stdout.trimEnd().split('\n').at(-1)).toBe('A supervised session here lacks: relay, lifeline.');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('ccc doctor, with the codex reviewer configured', () => {
  function withCodex(rig: Rig, codex: Record<string, unknown> = {}) {
    const world = rig.world({ supervisor: true });
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { checkers: ['claude', 'codex'], codex } }));
    const env = codexEnv(world.home, 'http://127.0.0.1:9/v1');
    delete env.CCC_CODEX_BASE_URL;
    return { world, env };
  }

  it('the binary with its version, the key its base URL reads, and a sandbox that works: exit 0', async ({ rig }) => {
    const { world, env } = withCodex(rig, { base_url: 'http://127.0.0.1:9/v1' });
    const run = await runCcc(world, ['doctor'], { env });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^✓ codex +${TESTED_CODEX}, ${codexBin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(run.stdout).toMatch(/^✓ codex login +OPENAI_API_KEY is set, for 127\.0\.0\.1:9 \(supervisor\.codex\.base_url\)$/m);
    expect(run.stdout).toMatch(/^✓ codex sandbox +works: a write inside it is refused$/m);
  });

  it('no key for the base URL, or no login for codex itself: exit 1, with the fix', async ({ rig }) => {
    const { world, env } = withCodex(rig, { base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MY_GATEWAY_KEY' });
    const keyless = await runCcc(world, ['doctor'], { env });
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toMatch(/^✗ codex login +MY_GATEWAY_KEY is not set; .*\n +fix: export MY_GATEWAY_KEY=<your key>$/m);
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { checkers: ['codex'] } }));
    const { code, check } = await doctorJson(world, { ...env, OPENAI_API_KEY: '' });
    expect(code).toBe(1);
    expect(check('codex-login')).toMatchObject({ status: 'missing', detail: 'Not logged in', fix: expect.stringContaining('codex login') });
  });

  it('a codex that is not there: exit 1, how to install it', async ({ rig }) => {
    const { world, env } = withCodex(rig);
    const { code, check } = await doctorJson(world, { ...env, CCC_CODEX: '/nonexistent/codex' });
    expect(code).toBe(1);
    expect(check('codex')).toMatchObject({
      status: 'missing',
      detail: 'not found ("/nonexistent/codex")',
      fix: expect.stringContaining('npm install -g @openai/codex'),
    });
  });
});
