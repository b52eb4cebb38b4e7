/**
 * `npm run bench`: runs every measurement against the built dist/,
 * prints the tables and the targets, writes bench/results/<date>.json and bench/RESULTS.md.
 *
 * Scale knobs (defaults are the figures; a quick run: BENCH_QUICK=1):
 *   BENCH_KEYSTROKES=5000  BENCH_MB=100  BENCH_THROUGHPUT_REPS=6  BENCH_HOOK_RUNS=20
 *   BENCH_FRAMES_MB=1024  BENCH_HUGE_LINE_MB=50  BENCH_MEMORY_MB=200  BENCH_MEMORY_REPS=4  BENCH_OBSERVERS_MB=200  BENCH_OBSERVER_REPS=3
 *   BENCH_STARTUP_RUNS=15  BENCH_PROMPT_RUNS=6
 *   BENCH_COMPARE_CLI=<other build>/dist/cli/main.js   (adds that build's ccc --supervisor, in alternation)
 *   BENCH_REVIEW_RUNS=10   (reviewer start-up runs, real claude)
 *   BENCH_TRANSCRIPT_MB=1,10,50,150  BENCH_TRANSCRIPT_RUNS=5  BENCH_TRANSCRIPT_REVIEWER_ARGS=1   (the transcript-size series, real claude)
 *   BENCH_CHURN_OBSERVERS=200  BENCH_CHURN_KEYSTROKES=2000  BENCH_CHURN_ROUNDS=3  BENCH_CHURN_ROUND_S=30  BENCH_CHURN_MEMLOG=1 BENCH_CHURN_TRIM=1 (what holds ccc's memory)
 *   BENCH_ONLY=startup,hook,keystroke,throughput,memory,churn,frames,review,spend,transcript   (a subset; BENCH_ONLY=startup: the start-up section alone)
 *   BENCH_LABEL=before   (bench/results/<date>-before.json and .md; RESULTS.md untouched)
 *   BENCH_NODE_ARGS=--cpu-prof   (node flags for the ccc variants, to profile the proxy)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { benchFrames } from './frames.mjs';
import { benchHook } from './hook.mjs';
import { benchObserversMemory } from './observers.mjs';
import { benchObserverChurn } from './observer-churn.mjs';
import { benchKeystrokes } from './keystroke.mjs';
import { benchReview } from './review.mjs';
import { benchSpend } from './spend.mjs';
import { benchTranscriptSize } from './transcript-size.mjs';
import { loadAverage, machineInfo } from './lib/machine.mjs';
import { consoleReport, markdownReport, withKeptPart } from './lib/report.mjs';
import { evaluateTargets } from './lib/targets.mjs';
import { median } from './lib/stats.mjs';
import { CLI, COMPARE_CLI, makeWorkspace, ROOT, VARIANTS } from './lib/variants.mjs';
import { benchStartup } from './startup.mjs';
import { benchProxyMemory, benchThroughput } from './throughput.mjs';

const quick = process.env.BENCH_QUICK === '1';
const num = (name, full, small) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return quick ? small : full;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${raw}: expected a positive number`);
  return value;
};
const config = {
  keystrokes: num('BENCH_KEYSTROKES', 5000, 500),
  throughputMiB: num('BENCH_MB', 100, 10),
  throughputReps: num('BENCH_THROUGHPUT_REPS', 6, 1),
  hookRuns: num('BENCH_HOOK_RUNS', 20, 5),
  framesMiB: num('BENCH_FRAMES_MB', 1024, 64),
  hugeLineMB: num('BENCH_HUGE_LINE_MB', 50, 50),
  memoryMiB: num('BENCH_MEMORY_MB', 200, 20),
  memoryReps: num('BENCH_MEMORY_REPS', 4, 1),
  observersMiB: num('BENCH_OBSERVERS_MB', 200, 10),
  observers: 50,
  observerReps: num('BENCH_OBSERVER_REPS', 3, 1),
  churnObservers: num('BENCH_CHURN_OBSERVERS', 200, 200),
  churnKeystrokes: num('BENCH_CHURN_KEYSTROKES', 2000, 400),
  churnRounds: num('BENCH_CHURN_ROUNDS', 3, 2),
  churnRoundS: num('BENCH_CHURN_ROUND_S', 30, 10),
  startupRuns: num('BENCH_STARTUP_RUNS', 15, 5),
  promptRuns: num('BENCH_PROMPT_RUNS', 6, 2),
  reviewRuns: num('BENCH_REVIEW_RUNS', 10, 3),
  transcriptRuns: num('BENCH_TRANSCRIPT_RUNS', 5, 2),
  transcriptMb: (process.env.BENCH_TRANSCRIPT_MB ?? (quick ? '1,10' : '1,10,50,150')).split(',').map(Number),
};
if (!config.transcriptMb.every((mb) => Number.isFinite(mb) && mb > 0))
  throw new Error(`BENCH_TRANSCRIPT_MB=${process.env.BENCH_TRANSCRIPT_MB}: expected sizes in MiB, comma-separated`);
const only = new Set(
  (process.env.BENCH_ONLY ?? 'startup,hook,keystroke,throughput,memory,churn,frames,review,spend,transcript').split(',').map((s) => s.trim()),
);
const label = process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL.replace(/[^\w.-]/g, '_')}` : '';
const MiB = 1024 * 1024;

const started = Date.now();
/** The run with the median MiB/s, with every run's MiB/s and the worst peak RSS of them all. */
function medianRun(runs) {
  const sorted = [...runs].sort((x, y) => x.mbPerS - y.mbPerS);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  return { ...middle, hwmMiB: Math.max(...runs.map((r) => r.hwmMiB)), runsMbPerS: runs.map((r) => Math.round(r.mbPerS * 10) / 10) };
}

const log = (message) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

if (!fs.existsSync(CLI)) {
  process.stderr.write(`bench: ${path.relative(ROOT, CLI)} is missing; run \`npm run build\` first (npm run bench does).\n`);
  process.exit(2);
}

const notes = [];
const variants = VARIANTS.map((v) => v.id).filter((id) => {
  if (id !== 'script') return true;
  const found = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (found.error) notes.push('(b) script(1) was not found (Debian: apt-get install bsdutils); its ratios are n/a.');
  return !found.error;
});

const results = { date: new Date().toISOString(), machine: machineInfo(), loadAverage: { start: loadAverage() }, config, notes };
if (COMPARE_CLI) results.compareCli = COMPARE_CLI;
const workspace = makeWorkspace();
try {
  if (only.has('startup')) results.startup = await benchStartup({ runs: config.startupRuns, promptRuns: config.promptRuns, workspace, log });
  if (only.has('hook')) {
    log('hook latency…');
    results.hook = await benchHook({ runs: config.hookRuns, workspace, log });
  }
  if (only.has('keystroke')) {
    log('keystroke round trip…');
    results.keystroke = await benchKeystrokes({ variants, count: config.keystrokes, warmup: 100, block: 1, workspace, log });
  }
  if (only.has('throughput')) {
    log('throughput…');
    results.throughput = await benchThroughput({ variants, bytes: config.throughputMiB * MiB, reps: config.throughputReps, workspace, log });
  }
  if (only.has('memory')) {
    const observersBuilt = fs.existsSync(path.join(ROOT, 'dist/observer'));
    if (!observersBuilt) results.observers = { unavailable: 'the observer (src/observer/) is not on this build' };
    // Issue 5: one observer that never reads must not slow the user's terminal (within 10%). A
    // single flood's MiB/s moves by ±15% on the shared machine, so the floods without and with the
    // stuck observer alternate, BENCH_MEMORY_REPS times (4 by default); medians for speed, the
    // worst peak RSS.
    const plain = [];
    const stuck = [];
    // ABBA order: each kind runs first as often as second, so a drift within the pair cannot bias the ratio.
    const floodPlain = async () => {
      try {
        plain.push(await benchProxyMemory({ bytes: config.memoryMiB * MiB, workspace }));
      } catch (error) {
        results.memory = { mb: config.memoryMiB, unavailable: error.message };
      }
    };
    const floodStuck = async () => {
      if (!observersBuilt) return;
      try {
        stuck.push(await benchObserversMemory({ bytes: config.memoryMiB * MiB, observers: 1 }));
      } catch (error) {
        results.stuckObserver = { unavailable: error.message };
      }
    };
    for (let rep = 0; rep < config.memoryReps; rep++) {
      log(`proxy memory, and with one stuck observer (${rep + 1}/${config.memoryReps})…`);
      for (const flood of rep % 2 === 0 ? [floodPlain, floodStuck] : [floodStuck, floodPlain]) await flood();
    }
    if (plain.length) results.memory = medianRun(plain);
    if (stuck.length) results.stuckObserver = medianRun(stuck);
    if (stuck.length && stuck.length === plain.length) {
      // The two floods of a repetition ran back to back, under the same load: their ratio is the
      // figure the machine's drift between repetitions moves least.
      const pairs = stuck.map((s, i) => Math.round((s.mbPerS / plain[i].mbPerS) * 100) / 100);
      results.stuckObserver.pairRatios = pairs;
      results.stuckObserver.pairedRatio = median(pairs);
    }
    if (observersBuilt) {
      log(`proxy memory with ${config.observers} observers, one stuck (${config.observerReps} runs)…`);
      try {
        // How much output the healthy observers take before they fall behind varies from run to
        // run, and the peak with it: the worst of several runs is the figure.
        const runs = [];
        for (let rep = 0; rep < config.observerReps; rep++)
          runs.push(await benchObserversMemory({ bytes: config.observersMiB * MiB, observers: config.observers }));
        const worst = runs.reduce((a, b) => (b.hwmMiB > a.hwmMiB ? b : a));
        results.observers = { ...worst, runsHwmMiB: runs.map((r) => Math.round(r.hwmMiB * 10) / 10) };
      } catch (error) {
        results.observers = { unavailable: error.message };
      }
    }
  }
  if (only.has('churn')) {
    log(`keystrokes with ${config.churnObservers} observers connecting and dropping…`);
    try {
      results.churn = await benchObserverChurn({
        count: config.churnObservers,
        keystrokes: config.churnKeystrokes,
        rounds: config.churnRounds,
        roundS: config.churnRoundS,
        memlog: process.env.BENCH_CHURN_MEMLOG === '1',
        trim: process.env.BENCH_CHURN_TRIM === '1',
        log,
      });
    } catch (error) {
      results.churn = { unavailable: error.message };
    }
  }
  if (only.has('review')) {
    log('review: cache share and reviewer start-up (real claude, scripted model server)…');
    try {
      results.review = await benchReview({ runs: config.reviewRuns, log });
    } catch (error) {
      results.review = { unavailable: error.message };
    }
  }
  if (only.has('spend')) {
    log('spend: what a user pays per review and for a wait (real claude, scripted model server)…');
    try {
      results.spend = await benchSpend({ log });
    } catch (error) {
      results.spend = { unavailable: error.message };
    }
  }
  if (only.has('transcript')) {
    log(`transcript size: ${config.transcriptMb.join(', ')} MiB, the standalone hook against claude --resume --fork-session (real claude)…`);
    try {
      results.transcript = await benchTranscriptSize({
        sizesMb: config.transcriptMb,
        runs: config.transcriptRuns,
        reviewerArgs: process.env.BENCH_TRANSCRIPT_REVIEWER_ARGS === '1',
        log,
      });
    } catch (error) {
      results.transcript = { unavailable: error.message };
    }
  }
  if (only.has('frames')) {
    log('frame parsing…');
    results.frames = await benchFrames({ mb: config.framesMiB, hugeLineMb: config.hugeLineMB, hugeTimeoutS: quick ? 30 : 120, log });
  }
} finally {
  workspace.remove();
}
results.loadAverage.end = loadAverage();
results.durationS = Math.round((Date.now() - started) / 1000);
results.targets = evaluateTargets(results);

process.stdout.write(consoleReport(results) + '\n');
const day = results.date.slice(0, 10);
const jsonName = `${day}${label}.json`;
const dir = path.join(ROOT, 'bench/results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, jsonName), JSON.stringify(results, null, 2) + '\n');
// A labelled run (often a subset, BENCH_ONLY) gets its report beside its figures; RESULTS.md is the last full run.
const markdownFile = label ? path.join(dir, jsonName.replace(/\.json$/, '.md')) : path.join(ROOT, 'bench/RESULTS.md');
const previous = label || !fs.existsSync(markdownFile) ? '' : fs.readFileSync(markdownFile, 'utf8');
fs.writeFileSync(markdownFile, withKeptPart(markdownReport(results, jsonName), previous));
log(`wrote bench/results/${jsonName} and ${path.relative(ROOT, markdownFile)} (${results.durationS} s)`);
