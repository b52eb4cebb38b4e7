/**
 * The test runners the reviewer tests drive, as this machine has them: the environment that finds
 * them (this repository's `node_modules/.bin` first on PATH for jest, vitest, mocha, pnpm and yarn;
 * rustup's and cargo's homes; go offline) and which node they find.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './claude-env.js';

export const TOOL_ENV: NodeJS.ProcessEnv = {
  PATH: `${path.join(repoRoot, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup'),
  CARGO_HOME: process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'),
  ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}),
  // go offline: the toolchain on PATH, no module proxy (the modules have no dependencies).
  GOTOOLCHAIN: 'local',
  GOPROXY: 'off',
  GOFLAGS: '',
};

/** The major version of the `node` the runners find (node's test runner reports a filter's left-out tests differently in 20 and 22). */
export const RUNNER_NODE_MAJOR = Number(
  spawnSync('node', ['-p', 'process.versions.node.split(".")[0]'], { env: { ...process.env, ...TOOL_ENV }, encoding: 'utf8' }).stdout.trim(),
);

/**
 * What a run of node's runner whose name filter matches none of `tests` says: node 20 reports each
 * left-out test as skipped, node 22 none at all (each file as one passing test that ccc does not count).
 */
export function nodeFilteredOut(tests: number): string {
  return RUNNER_NODE_MAJOR >= 22 ? 'it ran no test' : `no test passed (${tests} skipped)`;
}
