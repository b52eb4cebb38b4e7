/**
 * `node bench/restore-after-kill.mjs`: how long the user's terminal stays raw after a
 * `kill -9` of an interactive `ccc --supervisor`. The harness is the terminal (a node-pty master);
 * it waits until the relay has put the terminal in raw mode, sends SIGKILL to ccc, and runs
 * `stty -g` on the terminal until the settings are the ones from before ccc started. Each figure
 * is a range: the terminal came back after the next-to-last `stty` started and before the last
 * one ended (each is a process start: a few ms, far more on a loaded machine).
 * The Node proxy (CCC_RELAY=off) is measured too: nothing is left there to restore the terminal.
 *
 * Knobs: BENCH_RESTORE_RUNS=10 (per variant), BENCH_RESTORE_LIMIT_MS=2000 (gives up: "never").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { FIXTURES, makeWorkspace, variantSpec } from './lib/variants.mjs';

const runs = Number(process.env.BENCH_RESTORE_RUNS ?? 10);
const limitMs = Number(process.env.BENCH_RESTORE_LIMIT_MS ?? 2000);
const agent = path.join(FIXTURES, 'echo-agent.sh');

const stty = (tty) => spawnSync('stty', ['-F', tty, '-g'], { encoding: 'utf8' }).stdout.trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One kill: milliseconds until the terminal was back, or undefined when it never came back. */
async function once(variant) {
  const workspace = makeWorkspace();
  const spec = variantSpec(variant, agent, workspace);
  const term = pty.spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, cols: 80, rows: 24, name: 'xterm-256color' });
  let output = '';
  term.onData((d) => (output += d));
  try {
    let tty = '';
    while (!tty.startsWith('/dev/pts/')) {
      await sleep(5); // node-pty's child opens the terminal just after the fork
      tty = fs.readlinkSync(`/proc/${term.pid}/fd/0`);
    }
    const before = stty(tty); // before ccc touched it: node-pty's defaults
    for (let waited = 0; !output.includes('BENCH-READY') || stty(tty) === before; waited += 20) {
      if (waited > 30_000) throw new Error(`${variant}: the terminal never became raw:\n${output}`);
      await sleep(20);
    }
    const started = performance.now();
    process.kill(term.pid, 'SIGKILL'); // ccc itself is the pty's process
    // The terminal came back after the previous `stty` started and before the last one ended.
    let previous = started;
    for (;;) {
      const polled = performance.now();
      if (stty(tty) === before) return { low: previous - started, high: performance.now() - started };
      if (polled - started > limitMs) return undefined;
      previous = polled;
    }
  } finally {
    term.kill('SIGKILL');
    await sleep(300);
    workspace.remove();
  }
}

const ms = (value) => value.toFixed(1);
for (const [variant, label] of [
  ['ccc-sup', 'relay'],
  ['ccc-sup-node', 'Node proxy (CCC_RELAY=off)'],
]) {
  const figures = [];
  for (let i = 0; i < runs; i++) figures.push(await once(variant));
  const done = figures.filter((f) => f !== undefined);
  const never = figures.length - done.length;
  const highs = done.map((f) => f.high).sort((a, b) => a - b);
  const summary = done.length ? `; upper bounds: median ${ms(highs[Math.floor((highs.length - 1) / 2)])} ms, max ${ms(highs[highs.length - 1])} ms` : '';
  console.log(`${label}: restored after ${done.length}/${runs} kills${summary}${never ? `; ${never} not within ${limitMs} ms` : ''}`);
  if (done.length) console.log(`  each (between ms): ${done.map((f) => `${ms(f.low)}-${ms(f.high)}`).join(' ')}`);
}
console.log(`load average: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
