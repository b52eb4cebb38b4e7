/**
 * The four ways the stand-in agent is run. Each is a command the harness starts
 * in its own pty; the stand-in is the same script in all of them.
 *
 * (a) direct   the stand-in in the harness's pty: the physical limit
 * (b) script   `script -qfc` between the harness and the stand-in: the classic C proxy
 * (c) ccc-sup  `ccc --supervisor`, the stand-in as the agent through CCC_CLAUDE (the native relay
 *              carries the bytes)
 * (n) ccc-sup-node  the same with CCC_RELAY=off: ccc's Node proxy on node-pty, the fallback where
 *              the relay could not be built, and what (c) was before the relay
 * (d) ccc      plain `ccc` (the stand-in launched with the terminal inherited)
 * (r) node-pty a 15-line Node proxy (fixtures/bare-proxy.mjs): a reference, no target; it shows
 *              how much of (c)'s cost is Node and node-pty themselves
 * node-spawn   one Node start, then the stand-in's spawn, nothing else (fixtures/node-spawn.cjs)
 * node-front   a Node process starting a Node child that only spawns the stand-in
 *              (fixtures/node-front.cjs): the two Node starts of (c) with none of ccc's work
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');
/** What a user starts: the installed `ccc` (package.json "bin"), ccc's front in a terminal, main.js behind it. */
export const BIN = path.join(ROOT, 'dist/cli/bin.cjs');
export const FIXTURES = path.join(ROOT, 'bench/fixtures');

/**
 * BENCH_COMPARE_CLI=<other build>/dist/cli/main.js adds (c') `ccc --supervisor` of that build,
 * measured in the same run and in alternation with the others: before/after figures of a
 * change that the machine's load cannot skew.
 */
export const COMPARE_CLI = process.env.BENCH_COMPARE_CLI ? path.resolve(process.env.BENCH_COMPARE_CLI) : undefined;

export const VARIANTS = [
  { id: 'direct', label: '(a) direct pty' },
  { id: 'script', label: '(b) script -qfc' },
  { id: 'ccc-sup', label: '(c) ccc --supervisor' },
  ...(COMPARE_CLI ? [{ id: 'ccc-sup-cmp', label: "(c') ccc --supervisor, compare build" }] : []),
  { id: 'ccc-sup-node', label: '(n) ccc --supervisor, Node proxy (CCC_RELAY=off)' },
  { id: 'ccc', label: '(d) ccc (plain)' },
  { id: 'node-pty', label: '(r) bare node-pty proxy' },
];

/**
 * A scratch project for ccc: SUPERVISOR.md (the supervised launch checks it exists before
 * anything starts) and a private config dir, so a bench run never touches ~/.claude.
 */
export function makeWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-bench-'));
  fs.writeFileSync(path.join(dir, 'SUPERVISOR.md'), 'Benchmark workspace: the agent is a stand-in.\n');
  fs.mkdirSync(path.join(dir, 'config'));
  return {
    dir,
    configDir: path.join(dir, 'config'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function baseEnv(workspace, extra) {
  const env = { ...process.env, TERM: 'xterm-256color', CCC_CONFIG_DIR: workspace.configDir, ...extra };
  // The harness may itself run inside a supervised session; the variants must not think so.
  for (const key of Object.keys(env)) if (key.startsWith('CCC_SUPERVISOR_') || key === 'CCC_SUPERVISED') delete env[key];
  env.CCC_SUPERVISOR_PROMPT_PATH = path.join(workspace.dir, 'SUPERVISOR.md');
  return env;
}

/** Extra node flags for the ccc variants, e.g. BENCH_NODE_ARGS=--cpu-prof to profile the proxy. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** The spawn spec of `variant` running the stand-in script `agent` (a path). */
export function variantSpec(variant, agent, workspace, extraEnv = {}) {
  const env = baseEnv(workspace, extraEnv);
  const cwd = workspace.dir;
  switch (variant) {
    case 'direct':
      return { file: agent, args: [], cwd, env };
    case 'script':
      return { file: 'script', args: ['-qfc', agent, '/dev/null'], cwd, env };
    case 'ccc-sup':
      return { file: process.execPath, args: [...nodeArgs, BIN, '--supervisor'], cwd, env: { ...env, CCC_CLAUDE: agent } };
    case 'ccc-sup-node':
      return { file: process.execPath, args: [...nodeArgs, BIN, '--supervisor'], cwd, env: { ...env, CCC_CLAUDE: agent, CCC_RELAY: 'off' } };
    case 'ccc-sup-cmp':
      return { file: process.execPath, args: [...nodeArgs, COMPARE_CLI, '--supervisor'], cwd, env: { ...env, CCC_CLAUDE: agent } };
    case 'ccc':
      return { file: process.execPath, args: [...nodeArgs, BIN], cwd, env: { ...env, CCC_CLAUDE: agent } };
    case 'node-spawn':
      return { file: process.execPath, args: [path.join(FIXTURES, 'node-spawn.cjs')], cwd, env: { ...env, CCC_CLAUDE: agent } };
    case 'node-front':
      return { file: process.execPath, args: [path.join(FIXTURES, 'node-front.cjs')], cwd, env: { ...env, CCC_CLAUDE: agent } };
    case 'node-pty':
      return { file: process.execPath, args: [path.join(FIXTURES, 'bare-proxy.mjs')], cwd, env: { ...env, CCC_CLAUDE: agent } };
    default:
      throw new Error(`unknown variant ${variant}`);
  }
}
