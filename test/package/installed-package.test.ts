/**
 * ccc as users get it: packed from a clean checkout (only the files git would commit, so no dist/
 * from a developer's build), installed from the tarball the ways users install (npm, npm
 * --ignore-scripts, pnpm 10 with its defaults, npm -g), and run from there. Whichever way, the
 * guarantees hold without an install script: the reviewer of a supervised run is under the
 * lifeline, kill -9 of ccc leaves nothing running, and `ccc mcp`'s store is ok. The --ignore-scripts
 * install also stands for a platform without a prebuilt: its dist/prebuilt is removed, so ccc
 * compiles its helpers on first use (and, without a compiler, says what is lost, once).
 *
 * Needs the npm registry (the dependencies of the installs, and pnpm), so it is not part of
 * `npm test`: `npm run test:package` (`.ci/run` runs it after the suite).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { DoctorReport } from '../../src/doctor/run-doctor.js';
import type { SelfTestResult } from '../../src/mcp/tools/self-test.js';
import { claudeBin, repoRoot } from '../support/claude-env.js';
import { processesIn } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';
import { descendants, liveOnes } from '../support/process-tree.js';
import { runProcess } from '../support/run-process.js';
import { installAll, type Installed } from './package-installs.js';

const INSTALL_MS = 10 * 60_000;

let root: string;
let tarball: string;
let packed: string[];
let installs: Installed[];

/** The files of a clean checkout: tracked, plus new files not ignored (what the next commit holds). */
function copyCheckout(to: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
  for (const file of listed.split('\0').filter(Boolean)) {
    const from = path.join(repoRoot, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
  // The `prepare` build needs the dev dependencies (tsc); installing them again would only repeat `npm ci`.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(to, 'node_modules'));
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-package-')));
  const checkout = path.join(root, 'checkout');
  copyCheckout(checkout);
  expect(fs.existsSync(path.join(checkout, 'dist'))).toBe(false);
  // Asynchronous, as the installs: the worker keeps answering vitest during the `prepare` build.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', root], {
    cwd: checkout,
    encoding: 'utf8',
    timeout: INSTALL_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(root, pack!.filename);
  packed = pack!.files.map((f) => f.path);
  installs = await installAll(root, tarball);
}, INSTALL_MS);

afterAll(async () => {
  if (root) await fs.promises.rm(root, { recursive: true, force: true }); // four installs: not in one blocking call
}, INSTALL_MS);

const install = (name: Installed['name']) => installs.find((i) => i.name === name)!;

/** Directories named `build` under any node-pty package: what compiling node-pty leaves. */
function nodePtyBuilds(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'build' && full.includes('node-pty')) found.push(full);
    else found.push(...nodePtyBuilds(full));
  }
  return found;
}

/** A process's argv and parent, from /proc. */
function proc(pid: number): { argv: string[]; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return {
      argv: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean),
      ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
    };
  } catch {
    return undefined;
  }
}

describe('the package, packed from a clean checkout', () => {
  it('ships what runs: the built CLI and plugins, the prebuilt helpers and their C sources, the user docs; no tests, no TypeScript sources, no source maps, no install script', () => {
    expect(packed).toContain('dist/cli/main.js');
    expect(packed).toContain('dist/plugins/test-gate.js');
    expect(packed).toContain('dist/plugins/no-leftovers.js');
    expect(packed).toContain('dist/index.d.ts');
    expect(packed).toEqual(
      expect.arrayContaining([
        `dist/prebuilt/${process.platform}-${process.arch}/ccc-relay`,
        `dist/prebuilt/${process.platform}-${process.arch}/ccc-lifeline`,
        'dist/prebuilt/sources.sha256',
      ]),
    );
    expect(packed).toEqual(expect.arrayContaining(['native/relay.c', 'native/byte-path-rules.h', 'native/lifeline.c']));
    // The user docs: ccc's messages point at them (the kanban file's format).
    expect(packed).toEqual(expect.arrayContaining(['docs/kanban.md', 'docs/install.md']));
    expect(packed.filter((f) => f.startsWith('dist/relay/'))).toEqual([]);
    expect(packed.filter((f) => /\.map$|\.test\.|(^|\/)test\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const scripts = (JSON.parse(fs.readFileSync(path.join(install('npm -g').packageDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?install$/.test(name))).toEqual([]);
  });

  it('pnpm 10 has no build script to ignore, and nothing needed one: node-pty came prebuilt everywhere', () => {
    expect(install('pnpm 10').output).not.toMatch(/Ignored build scripts/i);
    for (const i of installs) expect(nodePtyBuilds(i.prefix)).toEqual([]);
  });

  it('ccc --version and ccc --help work from the installed bin', async () => {
    const { ccc } = install('npm -g');
    const version = await runProcess(ccc, ['--version'], { env: { PATH: process.env.PATH, HOME: root, CCC_CLAUDE: claudeBin } });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^ccc \d+\.\d+\.\d+\nclaude \d+\.\d+\.\d+ \(Claude Code\)\n$/);
    const help = await runProcess(ccc, ['--help'], { env: { PATH: process.env.PATH, HOME: root } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--supervisor');
    expect(help.stdout).toContain('--max-iterations');
  });
});

// The packed and installed package is shared by the whole file on purpose (four installs); each test's server and world are its own.
describe.each(['npm', 'npm --ignore-scripts', 'pnpm 10', 'npm -g'] as const)('installed with %s', (name) => {
  it('ccc doctor: everything a supervised session needs, the relay and the lifeline set up under the config dir', async ({ rig }) => {
    const { world: w } = await rig.start(() => ({ text: 'unused' }));
    const run = await runProcess(install(name).ccc, ['doctor', '--json'], { cwd: w.cwd, env: w.env });
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.checks.filter((c) => c.needed && c.status !== 'ok')).toEqual([]);
    expect(run.code).toBe(0);
    const origin = name === 'npm --ignore-scripts' ? 'compiled now' : "the package's prebuilt for linux-x64, set up now";
    for (const id of ['relay', 'lifeline']) {
      expect(report.checks.find((c) => c.id === id)!.detail).toMatch(
        new RegExp(`^${w.claudeDir}/ccc/native/[^/]+/ccc-(relay|lifeline) \\(${origin.replace(/[()']/g, '.')}\\)$`),
      );
    }
  });

  it('a headless supervised run: the reviewer runs under ccc-lifeline, and kill -9 of ccc leaves nothing running', async ({ rig }) => {
    const { server, world: w } = await rig.start((r) => (r.kind === 'review' ? { hang: true } : { text: 'done' }));
    let stderr = '';
    // Started in the world: the rig's world takes it down with it if the test fails before it is killed.
    const ccc = spawn(install(name).ccc, ['--supervisor', '-p', 'do it'], { cwd: w.cwd, env: w.env, stdio: ['ignore', 'ignore', 'pipe'] });
    ccc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await vi.waitFor(() => expect(server.byKind('review').length).toBeGreaterThan(0), { timeout: 90_000, interval: 50 });
    const children = descendants(ccc.pid!).filter((pid) => proc(pid)?.ppid === ccc.pid);
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) expect(proc(pid)?.argv[0]).toMatch(new RegExp(`^${w.claudeDir}/ccc/native/[^/]+/ccc-lifeline$`));
    const underLifelines = children.flatMap((pid) => descendants(pid).map((p) => proc(p)?.argv.join(' ') ?? ''));
    expect(underLifelines.some((argv) => argv.includes('--fork-session'))).toBe(true); // the reviewer, forked from the agent's session
    if (name === 'npm --ignore-scripts') expect(stderr).toMatch(/^ccc: built ccc-relay and ccc-lifeline for ccc \S+ on \S+ in [\d.]+ s \(kept in .*\)$/m);
    else expect(stderr).not.toMatch(/ccc: (built|no) ccc-/);

    const tree = descendants(ccc.pid!);
    const requestsAtKill = server.requests.length;
    ccc.kill('SIGKILL');
    await vi.waitFor(
      () => {
        expect(liveOnes(tree)).toEqual([]);
        expect(processesIn(w)).toEqual([]);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(server.requests.length).toBe(requestsAtKill);
  }, 150_000);

  it("ccc mcp: the official SDK client's self_test reports the store ok", async ({ rig }) => {
    const { world: w } = await rig.start(() => ({ text: 'unused' }));
    const transport = new StdioClientTransport({ command: install(name).ccc, args: ['mcp'], env: w.env as Record<string, string>, cwd: w.cwd, stderr: 'pipe' });
    const client = new Client({ name: 'ccc-package-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'self_test', arguments: {} }, undefined, { timeout: 60_000 });
      const report = result.structuredContent as SelfTestResult;
      expect(report.health.database).toEqual({ status: 'ok', path: `${w.claudeDir}/ccc/mcp.jsonl` });
      expect(report.summary).toBe('All checks are ok: supervisor, worker, web server and database.');
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe('without a prebuilt that runs and without a C compiler (the --ignore-scripts install, CC pointing nowhere)', () => {
  it('a supervised run says once what is lost and how to fix it; ccc doctor exits 1 with the fix', async ({ rig }) => {
    const { world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'done' } } : { text: 'done' }), {
      env: { CC: '/nonexistent/cc' },
    });
    const { ccc } = install('npm --ignore-scripts');
    const first = await runProcess(ccc, ['--supervisor', '-p', 'do it'], { cwd: world.cwd, env: world.env, timeoutMs: 120_000 });
    expect(first.code).toBe(0);
    const said = first.stderr.split('\n').filter((line) => line.startsWith('ccc: no ccc-'));
    expect(said).toEqual([
      expect.stringMatching(
        /^ccc: no ccc-relay or ccc-lifeline \(none is prebuilt for \S+, and there is no C compiler to build it \(\/nonexistent\/cc: not found\)\), so .* keeps running when ccc is killed with kill -9\. To fix: install a C compiler .* and run `ccc doctor`, which builds them\./,
      ),
    ]);
    const second = await runProcess(ccc, ['--supervisor', '-p', 'do it'], { cwd: world.cwd, env: world.env, timeoutMs: 120_000 });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('ccc: no ccc-');
    const doctor = await runProcess(ccc, ['doctor'], { cwd: world.cwd, env: world.env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^✗ lifeline +none is prebuilt for .*\n +fix: install a C compiler .*, then run `ccc doctor` again$/m);
    expect(doctor.stdout.trimEnd().split('\n').at(-1)).toBe('A supervised session here lacks: relay, lifeline.');
  }, 300_000);
});

describe('a headless supervised run with the bundled test gate (npm -g)', () => {
  it('--checker ccc-supervisor/plugins/test-gate: the gate refuses the lazy stop, the agent creates DONE, exit 0', async ({ rig }) => {
    const server = await rig.server((r) => {
      if (r.kind === 'review') return { verdict: { completed: false, feedback: 'no model review was expected' } };
      if (r.index === 0) return { text: 'All done, trust me.' };
      if (isToolResultTurn(r)) return { text: 'Created DONE.' };
      return { toolUse: { name: 'Bash', input: { command: 'touch DONE', description: 'create the DONE file' } } };
    });
    const world = rig.world({ server });
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'test -f DONE' } }));
    const run = await runProcess(
      install('npm -g').ccc,
      ['--supervisor', '--checker', 'ccc-supervisor/plugins/test-gate', '-p', 'create a file named DONE', '--', '--allowedTools', 'Bash'],
      {
        cwd: world.cwd,
        env: world.env,
        timeoutMs: 180_000,
      },
    );
    expect(run.stderr).toContain('complete (test-gate, unverified: npm test: it runs `test -f DONE`: no test runner ccc knows)'); // the gate's own run is its evidence, and it runs no test runner
    expect(run.code).toBe(0);
    expect(server.byKind('agent')[1]!.lastUserText).toContain('The tests fail: `npm test` exited with code 1.');
    expect(fs.existsSync(path.join(world.cwd, 'DONE'))).toBe(true);
    expect(server.byKind('review')).toHaveLength(0);
  }, 200_000);
});
