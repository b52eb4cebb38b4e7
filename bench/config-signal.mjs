/**
 * `node bench/config-signal.mjs` (after `npm run build`): how long `ccc --supervisor -p` takes to
 * end after SIGINT, SIGTERM or SIGHUP while its `ccc.config.mjs` computes without end. The config
 * loads in a thread of its own so that ccc's thread stays free for signals; a user's Ctrl-C must
 * end ccc at once, not at the load's 5 s CPU bound. Each run: ccc started, the config's first line
 * seen (it writes a file), the signal sent, ccc's exit awaited; the figure is signal to exit.
 *
 * Knobs: BENCH_CONFIG_SIGNAL_RUNS=10 (per signal).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadAverage } from './lib/machine.mjs';
import { summarize } from './lib/stats.mjs';
import { CLI, makeWorkspace } from './lib/variants.mjs';

const runs = Number(process.env.BENCH_CONFIG_SIGNAL_RUNS ?? 10);

/** One run: milliseconds from the signal to ccc's exit, and how it ended. */
async function once(signal) {
  const workspace = makeWorkspace();
  const started = path.join(workspace.dir, 'config-started');
  fs.writeFileSync(
    path.join(workspace.dir, 'ccc.config.mjs'),
    `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(started)}, '');\nwhile (Date.now() > 0) {}\nexport default {};\n`,
  );
  const env = { ...process.env, CCC_CONFIG_DIR: workspace.configDir, CCC_SUPERVISOR_PROMPT_PATH: path.join(workspace.dir, 'SUPERVISOR.md') };
  for (const key of Object.keys(env))
    if ((key.startsWith('CCC_SUPERVISOR_') && key !== 'CCC_SUPERVISOR_PROMPT_PATH') || key === 'CCC_SUPERVISED') delete env[key];
  const child = spawn(process.execPath, [CLI, '--supervisor', '-p', 'do it'], { cwd: workspace.dir, env, stdio: 'ignore' });
  const ended = new Promise((resolve) => child.on('exit', (code, sig) => resolve({ at: performance.now(), code, signal: sig })));
  try {
    while (!fs.existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 5));
    const sent = performance.now();
    child.kill(signal);
    const end = await ended;
    return { ms: end.at - sent, endedBy: end.signal ?? `exit ${end.code}` };
  } finally {
    child.kill('SIGKILL');
    workspace.remove();
  }
}

if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build first`);
console.log(`ccc ended by a signal while its config file loops (${runs} runs each; load ${loadAverage()})`);
console.log('signal   p50 ms  p90 ms  max ms  ended by');
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(signal));
  const s = summarize(results.map((r) => r.ms));
  const endings = [...new Set(results.map((r) => r.endedBy))].join(', ');
  console.log(`${signal.padEnd(8)} ${s.p50.toFixed(0).padStart(6)}  ${s.p90.toFixed(0).padStart(6)}  ${s.max.toFixed(0).padStart(6)}  ${endings}`);
}
