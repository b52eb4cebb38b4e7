/**
 * Observers churning during heavy output: `ccc --supervisor --observe` running a stand-in that
 * echoes keystrokes while writing about 1 MiB/s (fixtures/chatter-agent.sh), measured without
 * observers, then in `rounds` rounds (of at least `roundS` seconds) of `count` observers connecting
 * and dropping in a separate process (observer-churn-worker.mjs), each followed by a quiet spell:
 *   - keystroke round trip (p50, p99) without observers (the quiet spells together) and during
 *     the churn: observers must never slow the keystroke path;
 *   - the RSS of all of ccc's processes (walked at every reading: the screen worker comes and goes)
 *     before, at most during each round, 3 s after it and once settled (20 s after): memory must
 *     come back, and a second and third round must not grow what the first left;
 *   - how fast the session log grows during each round (bytes per 100 s).
 * With BENCH_CHURN_MEMLOG=1 every Node process of ccc also logs `process.memoryUsage()` (after a
 * full collection at each settled reading; lib/memory-logger.mjs): what holds the RSS. With
 * BENCH_CHURN_TRIM=1 (needs gdb), each settled reading is followed by `malloc_trim(0)` in each of
 * them: what stays is in use, what goes was free memory the allocator kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { roundTrip } from './keystroke.mjs';
import { PtyDriver, READY } from './lib/pty-driver.mjs';
import { ProxyTree, sampleRss } from './lib/proc-status.mjs';
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
/** When ccc's RSS is read the last time after a round, counted from the round's end. */
const SETTLE_MS = 20_000;

/** Each live process's RSS, named and rounded, for the report. */
const eachRss = (memory) => memory.each.map(({ name, rssMiB }) => ({ name, rssMiB: Math.round(rssMiB) }));

/**
 * Hands the memory glibc keeps for later back to the system, in each Node process of ccc
 * (`malloc_trim(0)` called through gdb): what RSS is left then is what ccc's processes use, not
 * what the allocator kept once they freed it. Each process's RSS after, or why not.
 */
function trimAllocator(tree) {
  const out = [];
  for (const p of tree.memory().each.filter((e) => e.name !== 'ccc-relay')) {
    const r = spawnSync('gdb', ['-p', String(p.pid), '-batch', '-ex', 'print (int) malloc_trim(0)'], { encoding: 'utf8', timeout: 60_000 });
    const trimmed = /^\$1 = 1$/m.test(r.stdout ?? '');
    const after = tree.memory().each.find((e) => e.pid === p.pid);
    out.push({
      name: p.name,
      rssBeforeMiB: Math.round(p.rssMiB),
      rssAfterMiB: after ? Math.round(after.rssMiB) : NaN,
      ...(trimmed ? {} : { failed: (r.error?.message ?? r.stderr ?? '').slice(-200) }),
    });
  }
  return out;
}

/** The memory logger's readings taken after a full collection at `mark`, one per process. */
function gcReadings(dir, mark) {
  if (!dir) return undefined;
  const out = [];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const line = fs
      .readFileSync(path.join(dir, name), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.afterGc && l.mark === mark);
    if (line) out.push({ pid: Number(name.replace('.jsonl', '')), ...line });
  }
  return out;
}

/** @param {{ count: number, keystrokes: number, rounds?: number, roundS?: number, memlog?: boolean, trim?: boolean, log: (s: string) => void }} o */
export async function benchObserverChurn(o) {
  const rounds = o.rounds ?? 3;
  const roundS = o.roundS ?? 30;
  const workspace = makeWorkspace();
  const memlogDir = o.memlog ? path.join(workspace.dir, 'memlog') : undefined;
  const extraEnv = {};
  if (memlogDir) {
    fs.mkdirSync(memlogDir);
    extraEnv.BENCH_MEMLOG_DIR = memlogDir;
    extraEnv.NODE_OPTIONS =
      `${process.env.NODE_OPTIONS ?? ''} --expose-gc --import ${pathToFileURL(path.join(ROOT, 'bench/lib/memory-logger.mjs')).href}`.trim();
  }
  const spec = variantSpec('ccc-sup', AGENT, workspace, extraEnv);
  const driver = new PtyDriver({ ...spec, args: [...spec.args, '--observe'] });
  let churn;
  try {
    await driver.waitFor(READY, 20000, 'ccc --supervisor --observe');
    const url = /Observer: (\S+)/.exec(driver.head)?.[1];
    if (!url) throw new Error(`no observer URL in the output: ${JSON.stringify(driver.head.slice(0, 400))}`);
    const tree = new ProxyTree(driver.pid);
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
    /** The settled reading: RSS now and, with the memory log, each process after a full collection. */
    const settled = async (mark) => {
      if (memlogDir) {
        fs.writeFileSync(path.join(memlogDir, 'mark'), mark);
        await pause(2500); // the logger polls every second
      }
      const memory = tree.memory();
      return {
        rssMiB: memory.rssMiB,
        each: eachRss(memory),
        ...(memlogDir ? { afterGc: gcReadings(memlogDir, mark) } : {}),
        ...(o.trim ? { afterTrim: trimAllocator(tree) } : {}),
      };
    };
    await type(100);
    const quiet = await type(Math.ceil(o.keystrokes / 2));
    const before = await settled('before');
    const churning = [];
    const perRound = [];
    for (let round = 1; round <= rounds; round++) {
      o.log(`observer churn, round ${round}/${rounds}: ${o.count} observers connecting and dropping…`);
      const logBefore = logBytes(workspace.dir);
      const stopSampling = sampleRss(tree, 50);
      const t0 = Date.now();
      churn = startChurn(url, o.count);
      await pause(2000); // the churn under way before the keystrokes are timed
      churning.push(...(await type(Math.ceil(o.keystrokes / rounds))));
      // Rounds of the same length whatever the load: each churns at least `roundS`.
      await pause(Math.max(0, roundS * 1000 - (Date.now() - t0)));
      const churnS = (Date.now() - t0) / 1000;
      const tally = await churn.stop();
      const stoppedAt = Date.now();
      churn = undefined;
      const rssMaxDuringMiB = stopSampling();
      const logGrowth = logBytes(workspace.dir) - logBefore;
      await pause(3000); // the screen worker retires, the sockets are gone
      const after = tree.memory();
      quiet.push(...(await type(Math.floor(o.keystrokes / 2 / rounds))));
      // V8 collects the churn's garbage (sockets' buffers, screens) once allocation has been low for
      // a while, not at once: what is still held then is what the churn kept.
      await pause(Math.max(0, SETTLE_MS - (Date.now() - stoppedAt)));
      perRound.push({
        round,
        churnS: Math.round(churnS),
        tally,
        rssMaxDuringMiB,
        rssAfterMiB: after.rssMiB,
        rssAfterEach: eachRss(after),
        settled: await settled(`round ${round}`),
        logBytesPer100s: Math.round((logGrowth / churnS) * 100),
      });
    }
    const first = perRound[0];
    return {
      observers: o.count,
      rounds,
      quietUs: summarize(quiet),
      churningUs: summarize(churning),
      rssBeforeMiB: before.rssMiB,
      before,
      perRound,
      settleS: SETTLE_MS / 1000,
      keystrokeTimeouts: timeouts,
      // The first round's figures under the names earlier results used.
      churnS: first.churnS,
      tally: first.tally,
      rssMaxDuringMiB: Math.max(...perRound.map((r) => r.rssMaxDuringMiB)),
      rssSettledMiB: perRound.at(-1).settled.rssMiB,
      logBytesPer100s: Math.max(...perRound.map((r) => r.logBytesPer100s)),
    };
  } finally {
    churn?.kill();
    await driver.stop();
    if (process.env.BENCH_KEEP_WORKSPACE) o.log(`kept ${workspace.dir}`);
    else workspace.remove();
  }
}

// On its own: `npm run build && node bench/observer-churn.mjs` (BENCH_CHURN_OBSERVERS, BENCH_KEYSTROKES,
// BENCH_CHURN_ROUNDS, BENCH_CHURN_ROUND_S, BENCH_CHURN_MEMLOG=1, BENCH_CHURN_TRIM=1).
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchObserverChurn({
    count: Number(process.env.BENCH_CHURN_OBSERVERS ?? 200),
    keystrokes: Number(process.env.BENCH_KEYSTROKES ?? 2000),
    rounds: Number(process.env.BENCH_CHURN_ROUNDS ?? 3),
    roundS: Number(process.env.BENCH_CHURN_ROUND_S ?? 30),
    memlog: process.env.BENCH_CHURN_MEMLOG === '1',
    trim: process.env.BENCH_CHURN_TRIM === '1',
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}
