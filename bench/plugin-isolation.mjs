/**
 * What running a checker plugin in its own worker thread costs (src/checkers/isolated-plugin.ts),
 * against loading and calling it in ccc's thread as before, alternating run by run in one process:
 *   - per session: load the plugin (in-process: import + factory; isolated: thread start, import
 *     there, ready), for a plain .mjs plugin and the bundled TypeScript no-leftovers through a
 *     warm transpile cache, in this process (the loader already warm) and in a fresh one each
 *     time (what a launch pays);
 *   - per review: one check round trip, with no frames and with 500 frames in ctx (about 0.6 MB).
 * On its own: `npm run build && node bench/plugin-isolation.mjs` (BENCH_PLUGIN_RUNS, default 15).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { importPluginModule, instantiatePlugin } = await dist('checkers/plugin-loader.js');
const { startIsolatedPlugin } = await dist('checkers/isolated-plugin.js');

// A fresh ccc process loading one plugin: `--cold <inprocess|isolated> <specifier> <cwd> <cache>` prints the ms it took.
if (process.argv[2] === '--cold') {
  const [, , , mode, specifier, cwd, cacheDir] = process.argv;
  const t = performance.now();
  if (mode === 'inprocess') await instantiatePlugin(specifier, (await importPluginModule(specifier, cwd, () => cacheDir)).exported, {});
  else await (await startIsolatedPlugin({ specifier, cwd, options: {}, moduleCacheDir: () => cacheDir, timeoutSeconds: 30 })).dispose();
  console.log(performance.now() - t);
  process.exit(0);
}

const runs = Number(process.env.BENCH_PLUGIN_RUNS ?? 15);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-bench-plugin-'));
const cache = path.join(dir, 'cache');
fs.mkdirSync(cache);
fs.writeFileSync(path.join(dir, 'plain.mjs'), `export default { name: 'plain', check: (ctx) => ({ completed: true, feedback: String(ctx.frames.length) }) };`);
const plugins = { 'plain .mjs': './plain.mjs', 'no-leftovers .ts': path.join(root, 'plugins', 'no-leftovers.ts') };

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const frame = (i) => ({ type: 'assistant', session_id: 's', message: { id: `m${i}`, content: [{ type: 'text', text: 'x'.repeat(1000) }] } });
const ctx = (frames) => ({
  sessionId: 's',
  cwd: dir,
  userPrompts: ['task'],
  lastAssistantMessage: 'done',
  iteration: 1,
  maxIterations: 20,
  completionMarker: '[TASK_COMPLETED]',
  timeoutSeconds: 30,
  frames,
  claudeArgs: [],
  claudeCommand: 'claude',
  env: { ...process.env },
  logger: quiet,
});
const never = new AbortController().signal;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (f) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

const rows = [];
for (const [label, specifier] of Object.entries(plugins)) {
  const inProcess = [];
  const isolated = [];
  // Warm both paths once (the transpile cache, the worker script's own modules on disk).
  const warm = await startIsolatedPlugin({ specifier, cwd: dir, options: {}, moduleCacheDir: () => cache, timeoutSeconds: 30 });
  await warm.dispose();
  await importPluginModule(specifier, dir, () => cache);
  for (let i = 0; i < runs; i++) {
    inProcess.push(await time(async () => instantiatePlugin(specifier, (await importPluginModule(specifier, dir, () => cache)).exported, {})));
    let started;
    isolated.push(
      await time(async () => (started = await startIsolatedPlugin({ specifier, cwd: dir, options: {}, moduleCacheDir: () => cache, timeoutSeconds: 30 }))),
    );
    await started.dispose();
  }
  rows.push({ what: `session start, ${label}`, inProcess: median(inProcess), isolated: median(isolated) });
}

// The same, each load in a fresh process (what a launch pays: jiti and the loader are not loaded yet).
const { execFileSync } = await import('node:child_process');
const cold = (mode, specifier) =>
  Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--cold', mode, specifier, dir, cache], { encoding: 'utf8' }));
for (const [label, specifier] of Object.entries(plugins)) {
  const inProcess = [];
  const isolated = [];
  for (let i = 0; i < runs; i++) {
    inProcess.push(cold('inprocess', specifier));
    isolated.push(cold('isolated', specifier));
  }
  rows.push({ what: `session start in a fresh process, ${label}`, inProcess: median(inProcess), isolated: median(isolated) });
}

const { exported } = await importPluginModule('./plain.mjs', dir);
const local = await instantiatePlugin('./plain.mjs', exported, {});
const remote = await startIsolatedPlugin({ specifier: './plain.mjs', cwd: dir, options: {}, timeoutSeconds: 30 });
for (const count of [0, 500]) {
  const frames = Array.from({ length: count }, (_, i) => frame(i));
  const inProcess = [];
  const isolated = [];
  await remote.check(ctx(frames), never);
  for (let i = 0; i < runs; i++) {
    inProcess.push(await time(() => local.check(ctx(frames), never)));
    isolated.push(await time(() => remote.check(ctx(frames), never)));
  }
  rows.push({ what: `one review, ${count} frames in ctx`, inProcess: median(inProcess), isolated: median(isolated) });
}
await remote.dispose();
fs.rmSync(dir, { recursive: true, force: true });

console.log(`checker plugin isolation, medians of ${runs} runs (ms)`);
console.log("| | in ccc's thread | own worker thread | difference |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.what} | ${r.inProcess.toFixed(2)} | ${r.isolated.toFixed(2)} | +${(r.isolated - r.inProcess).toFixed(2)} |`);
