/**
 * ccc as a new user gets it: packed from a clean checkout (only the files git would commit, so
 * no dist/ from a developer's build), installed from the tarball into an empty prefix, and run
 * from there. node-pty must come prebuilt (no node-pty build directory), and the bundled test
 * gate must load as `ccc-supervisor/plugins/test-gate` from the global install.
 *
 * Needs the npm registry (the dependencies of the install), so it is not part of `npm test`:
 * `npm run test:package` (`.ci/run` runs it after the suite).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeBin, makeClaudeWorld, repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { isToolResultTurn, startModelServer, type ModelServer } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

const INSTALL_MS = 10 * 60_000;

let root: string;
let tarball: string;
let packed: string[];
let prefix: string;
let ccc: string;

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

/** Asynchronous, so the test worker keeps answering vitest during a minutes-long install. */
async function npm(args: string[], cwd: string): Promise<string> {
  return (await promisify(execFile)('npm', args, { cwd, encoding: 'utf8', timeout: INSTALL_MS, maxBuffer: 64 * 1024 * 1024 })).stdout;
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-package-')));
  const checkout = path.join(root, 'checkout');
  copyCheckout(checkout);
  expect(fs.existsSync(path.join(checkout, 'dist'))).toBe(false);
  const [pack] = JSON.parse(await npm(['pack', '--json', '--pack-destination', root], checkout)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(root, pack!.filename);
  packed = pack!.files.map((f) => f.path);
  prefix = path.join(root, 'prefix');
  await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], root);
  ccc = path.join(prefix, 'bin', 'ccc');
}, INSTALL_MS);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

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

describe('the package, packed from a clean checkout and installed from the tarball', () => {
  it('ships what runs: the built CLI and plugins, no tests, no TypeScript sources, no source maps', () => {
    expect(packed).toContain('dist/cli/main.js');
    expect(packed).toContain('dist/plugins/test-gate.js');
    expect(packed).toContain('dist/plugins/no-leftovers.js');
    expect(packed).toContain('dist/index.d.ts');
    expect(packed).toContain('native/relay.c');
    expect(packed.filter((f) => /\.map$|\.test\.|(^|\/)test\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('installs with node-pty prebuilt: no node-pty build directory, the per-platform binary present', () => {
    const modules = path.join(prefix, 'lib', 'node_modules', 'ccc-supervisor', 'node_modules');
    expect(fs.readdirSync(path.join(modules, '@lydell')).some((name) => name.startsWith('node-pty-'))).toBe(true);
    expect(nodePtyBuilds(prefix)).toEqual([]);
  });

  it('ccc --version and ccc --help work from the installed bin', async () => {
    const version = await runProcess(ccc, ['--version'], { env: { PATH: process.env.PATH, HOME: root, CCC_CLAUDE: claudeBin } });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^ccc \d+\.\d+\.\d+\nclaude \d+\.\d+\.\d+ \(Claude Code\)\n$/);
    const help = await runProcess(ccc, ['--help'], { env: { PATH: process.env.PATH, HOME: root } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--supervisor');
    expect(help.stdout).toContain('--max-iterations');
  });

  describe('a headless supervised run with the bundled test gate', () => {
    let server: ModelServer;
    let world: ClaudeWorld;
    afterAll(async () => {
      await server?.close();
      world?.cleanup();
    });

    it('--checker ccc-supervisor/plugins/test-gate: the gate refuses the lazy stop, the agent creates DONE, exit 0', async () => {
      server = await startModelServer((r) => {
        if (r.kind === 'review') return { verdict: { completed: false, feedback: 'no model review was expected' } };
        if (r.index === 0) return { text: 'All done, trust me.' };
        if (isToolResultTurn(r)) return { text: 'Created DONE.' };
        return { toolUse: { name: 'Bash', input: { command: 'touch DONE', description: 'create the DONE file' } } };
      });
      world = makeClaudeWorld({ modelUrl: server.url });
      fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'test -f DONE' } }));
      const run = await runProcess(ccc, ['--supervisor', '--checker', 'ccc-supervisor/plugins/test-gate', '-p', 'create a file named DONE', '--', '--allowedTools', 'Bash'], {
        cwd: world.cwd,
        env: world.env,
        timeoutMs: 180_000,
      });
      expect(run.stderr).toContain('✓ complete (test-gate)');
      expect(run.code).toBe(0);
      expect(server.byKind('agent')[1]!.lastUserText).toContain('The tests fail: `npm test` exited with code 1.');
      expect(fs.existsSync(path.join(world.cwd, 'DONE'))).toBe(true);
      expect(server.byKind('review')).toHaveLength(0);
    }, 200_000);
  });
});
