/**
 * The ways users install ccc, each from the same tarball into its own directory, all at once:
 * npm into a project (default, and with --ignore-scripts), pnpm 10 with its defaults (pnpm itself
 * from the registry, here), and npm -g into a prefix. The npm installs share npm's cache (`npm ci`
 * filled it with the same dependencies), pnpm keeps one store under `root`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const INSTALL_MS = 10 * 60_000;

export interface Installed {
  name: 'npm' | 'npm --ignore-scripts' | 'pnpm 10' | 'npm -g';
  /** The installed `ccc` executable. */
  ccc: string;
  /** Where the package landed. */
  packageDir: string;
  /** The install's own directory, for searching what it left. */
  prefix: string;
  /** What the package manager printed. */
  output: string;
}

/** Asynchronous, so the test worker keeps answering vitest during a minutes-long install. */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(command, args, { cwd, encoding: 'utf8', timeout: INSTALL_MS, maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}

const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund'];

async function npmProject(root: string, tarball: string, name: Installed['name'], extra: string[]): Promise<Installed> {
  const prefix = path.join(root, name.replace(/\W+/g, '-'));
  fs.mkdirSync(prefix);
  fs.writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'project', private: true }));
  const output = await run('npm', ['install', ...npmFlags, ...extra, tarball], prefix);
  return { name, ccc: path.join(prefix, 'node_modules', '.bin', 'ccc'), packageDir: path.join(prefix, 'node_modules', 'ccc-supervisor'), prefix, output };
}

async function npmGlobal(root: string, tarball: string): Promise<Installed> {
  const prefix = path.join(root, 'global');
  const output = await run('npm', ['install', '--global', '--prefix', prefix, ...npmFlags, tarball], root);
  return { name: 'npm -g', ccc: path.join(prefix, 'bin', 'ccc'), packageDir: path.join(prefix, 'lib', 'node_modules', 'ccc-supervisor'), prefix, output };
}

async function pnpmProject(root: string, tarball: string): Promise<Installed> {
  const tool = path.join(root, 'pnpm-tool');
  await run('npm', ['install', '--prefix', tool, ...npmFlags, 'pnpm@10'], root);
  const prefix = path.join(root, 'pnpm');
  fs.mkdirSync(prefix);
  fs.writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'project', private: true }));
  const output = await run(path.join(tool, 'node_modules', '.bin', 'pnpm'), ['add', '--store-dir', path.join(root, 'pnpm-store'), tarball], prefix);
  return {
    name: 'pnpm 10',
    ccc: path.join(prefix, 'node_modules', '.bin', 'ccc'),
    packageDir: fs.realpathSync(path.join(prefix, 'node_modules', 'ccc-supervisor')),
    prefix,
    output,
  };
}

export async function installAll(root: string, tarball: string): Promise<Installed[]> {
  const installs = await Promise.all([
    npmProject(root, tarball, 'npm', []),
    npmProject(root, tarball, 'npm --ignore-scripts', ['--ignore-scripts']),
    pnpmProject(root, tarball),
    npmGlobal(root, tarball),
  ]);
  // The --ignore-scripts install also plays a platform the package has no prebuilt helpers for.
  fs.rmSync(path.join(installs[1].packageDir, 'dist', 'prebuilt', `${process.platform}-${process.arch}`), { recursive: true });
  return installs;
}
