/**
 * Observers churning during heavy output: `ccc --supervisor --observe` running a stand-in that
 * echoes keystrokes while writing about 1 MiB/s (fixtures/chatter-agent.sh), measured without
 * observers, then with `count` observers connecting and dropping in a separate process
 * (observer-churn-worker.mjs), then without again:
 *   - keystroke round trip (p50, p99) without observers (the two quiet phases together) and during
 *     the churn: observers must never slow the keystroke path;
 *   - ccc's RSS (ccc and its relay) before, at most during, 3 s after the churn and once settled
 *     (20 s after): memory must not grow with the number of connections, and must come back;
 *   - how fast the session log grows during the churn (bytes per 100 s).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { roundTrip } from './keystroke.mjs';
import { PtyDriver, READY } from './lib/pty-driver.mjs';
import { procMemory, proxyPids, sampleRss } from './lib/proc-status.mjs';
import { summarize } from './lib/stats.mjs';
import { FIXTURES, makeWorkspace, ROOT, variantSpec } from './lib/variants.mjs';

const AGENT = path.join(FIXTURES, 'chatter-agent.sh');

function logBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.log')) total += fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

function startChurn(url, count) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/observer-churn-worker.mjs'), url, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text) => (out += text));
  const closed = new Promise((resolve) => child.on('close', resolve));
  return {
    async stop() {
      child.stdin.end();
      await closed;
      return JSON.parse(out.trim().split('\n').at(-1));
    },
    kill: () => child.kill('SIGKILL'),
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** When ccc's RSS is read the last time, after the churn stopped. */
const SETTLE_MS = 20_000;

/** ccc (the launcher), its session process, the relay: what each RSS figure is. */
function processName(pid, index) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return comm === 'node' ? (index === 0 ? 'ccc' : 'ccc session') : comm;
  } catch {
    return 'gone';
  }
}

/** @param {{ count: number, keystrokes: number, log: (s: string) => void }} o */
export async function benchObserverChurn(o) {
  const workspace = makeWorkspace();
  const driver = new PtyDriver({ ...variantSpec('ccc-sup', AGENT, workspace), args: [...variantSpec('ccc-sup', AGENT, workspace).args, '--observe'] });
  let churn;
  try {
    await driver.waitFor(READY, 20000, 'ccc --supervisor --observe');
    const url = /Observer: (\S+)/.exec(driver.head)?.[1];
    if (!url) throw new Error(`no observer URL in the output: ${JSON.stringify(driver.head.slice(0, 400))}`);
    const pids = proxyPids(driver.pid);
    let timeouts = 0;
    let next = 0x61;
    const key = () => {
      const byte = next;
      next = next === 0x7a ? 0x61 : next + 1;
      return byte;
    };
    const type = async (n) => {
      const samples = [];
      // An echo that never came within the round trip's limit counts as that limit (and is counted).
      for (let i = 0; i < n; i++) samples.push(await roundTrip(driver, key()).catch(() => (timeouts++, 5_000_000)));
      return samples;
    };
    await type(100);
    const quiet = await type(Math.ceil(o.keystrokes / 2));
    const rssBeforeMiB = procMemory(pids).rssMiB;
    o.log(`observer churn: ${o.count} observers connecting and dropping…`);
    const logBefore = logBytes(workspace.dir);
    const stopSampling = sampleRss(pids, 50);
    const t0 = Date.now();
    churn = startChurn(url, o.count);
    await pause(2000); // the churn under way before the keystrokes are timed
    const churning = await type(o.keystrokes);
    const churnS = (Date.now() - t0) / 1000;
    const tally = await churn.stop();
    const stoppedAt = Date.now();
    churn = undefined;
    const rssMaxDuringMiB = stopSampling();
    const logGrowth = logBytes(workspace.dir) - logBefore;
    await pause(3000); // the screen worker retires, the sockets are gone
    const rssAfterMiB = procMemory(pids).rssMiB;
    const rssAfterEachMiB = pids.map((pid) => Math.round(procMemory(pid).rssMiB));
    quiet.push(...(await type(Math.floor(o.keystrokes / 2))));
    // V8 collects the churn's garbage (sockets' buffers, screens) once allocation has been low for
    // a while, not at once: what is still held then is what the churn kept.
    await pause(Math.max(0, SETTLE_MS - (Date.now() - stoppedAt)));
    const rssSettledMiB = procMemory(pids).rssMiB;
    const rssSettledEachMiB = pids.map((pid) => Math.round(procMemory(pid).rssMiB));
    return {
      observers: o.count,
      churnS: Math.round(churnS),
      tally,
      quietUs: summarize(quiet),
      churningUs: summarize(churning),
      rssBeforeMiB,
      rssMaxDuringMiB,
      rssAfterMiB,
      rssAfterEachMiB,
      processes: pids.map(processName),
      rssSettledMiB,
      rssSettledEachMiB,
      settleS: SETTLE_MS / 1000,
      keystrokeTimeouts: timeouts,
      logBytesPer100s: Math.round((logGrowth / churnS) * 100),
    };
  } finally {
    churn?.kill();
    await driver.stop();
    if (process.env.BENCH_KEEP_WORKSPACE) o.log(`kept ${workspace.dir}`);
    else workspace.remove();
  }
}

// On its own: `npm run build && node bench/observer-churn.mjs` (BENCH_CHURN_OBSERVERS, BENCH_KEYSTROKES).
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchObserverChurn({
    count: Number(process.env.BENCH_CHURN_OBSERVERS ?? 200),
    keystrokes: Number(process.env.BENCH_KEYSTROKES ?? 2000),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}
