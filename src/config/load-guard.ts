/**
 * A config file that is code runs while ccc starts, and it can end the launch, or never let it
 * go on: a top-level await that never settles, a synchronous endless loop (no signal handler of
 * ccc's would ever run again: Ctrl-C and SIGTERM did nothing), an allocation without end (a V8
 * abort at ~4 GB), a `process.exit` call. So it loads in a thread of its own (config-worker.ts),
 * bounded in CPU time, in wall time and in heap, while ccc's own thread stays free for signals and the bound. Each
 * way it fails is an error naming the file (exit 2); a `process.exit(n)` in it ends ccc with `n`,
 * with a line that says which file did it.
 *
 * The cost: a worker thread per code config loaded (bench/RESULTS.md, "Config files load in a
 * thread"). JSON and YAML configs run no code and load in ccc's thread.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CccError } from '../errors.js';
import { UNCLONABLE, type ConfigWorkerData, type ConfigWorkerResult } from './config-worker-protocol.js';

/**
 * A config's own work (reading a file, a quick lookup, and the transpiler that loads a TypeScript
 * config) fits well within this much CPU time; past it, it never ends. CPU time, not wall time: on a
 * loaded machine the thread gets a share of a core, and a valid config must not be refused for the
 * machine's load (at load 18 its transpile alone took more than 5 s of wall time). The thread's CPU
 * is the process's while it loads: ccc's own thread only waits for it.
 */
const CONFIG_CPU_LIMIT_MS = 5_000;
/** A config that waits without computing (a request that never answers) is given up after this long of waiting. */
const CONFIG_WAIT_LIMIT_MS = 15_000;
/**
 * Below this share of a core between two reads the load is waiting, not computing. A thread that
 * spins gets more than this even at load 25 on 2 cores (about 8%); one that awaits a request uses
 * next to nothing (ccc's own timer).
 */
const WAITING_CPU_SHARE = 0.02;
/** How often the thread's CPU time is read. */
const CPU_CHECK_MS = 100;
/** Far above what a configuration (and the TypeScript transpiler that loads it) needs. */
const CONFIG_HEAP_MB = 256;

export interface ConfigLoadLimits {
  /** CPU time the load may use. */
  cpuLimitMs?: number;
  /** Wall time the load may take. */
  waitLimitMs?: number;
  heapMb?: number;
  /** jiti's transpile cache for a TypeScript config. */
  cacheDir?: string;
}

/** The value `file` exports (its default export for TypeScript), loaded in a bounded thread. */
export function loadConfigModule(file: string, limits: ConfigLoadLimits = {}): Promise<unknown> {
  const cpuLimitMs = limits.cpuLimitMs ?? CONFIG_CPU_LIMIT_MS;
  const waitLimitMs = limits.waitLimitMs ?? CONFIG_WAIT_LIMIT_MS;
  const heapMb = limits.heapMb ?? CONFIG_HEAP_MB;
  const data: ConfigWorkerData = { file, ...(limits.cacheDir ? { cacheDir: limits.cacheDir } : {}) };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile(), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, Math.max(1, Math.floor(heapMb / 16))) },
    });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      finish();
    };
    const cpuAtStart = process.cpuUsage();
    let cpuMs = 0;
    let tickAt = Date.now();
    let waitedMs = 0;
    const timer = setInterval(() => {
      const used = process.cpuUsage(cpuAtStart);
      const cpuNow = (used.user + used.system) / 1000;
      const at = Date.now();
      // Wall time counts as waiting only while the thread computes nothing: on a loaded machine an
      // endless loop gets a small share of a core, and it must end at the CPU bound as what it is,
      // not at the wall bound as a config "waiting on something".
      if (cpuNow - cpuMs < WAITING_CPU_SHARE * (at - tickAt)) waitedMs += at - tickAt;
      cpuMs = cpuNow;
      tickAt = at;
      if (cpuMs < cpuLimitMs && waitedMs < waitLimitMs) return;
      settle(() => reject(cpuMs >= cpuLimitMs ? neverReturned(file, cpuLimitMs) : neverAnswered(file, waitLimitMs)));
      void worker.terminate();
    }, CPU_CHECK_MS);
    worker.once('message', (result: ConfigWorkerResult) => {
      settle(() => (result.ok ? resolve(revive(result.value)) : reject(thrownBy(result))));
      void worker.terminate();
    });
    worker.once('error', (error: NodeJS.ErrnoException) => {
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(file, heapMb) : error));
    });
    worker.once('exit', (code) => {
      if (settled) return;
      // Code 0 without a value: the thread ran out of work with the module still pending (a top-level
      // await that can never settle), or the file called process.exit(0).
      if (code === 0) return settle(() => reject(stoppedEarly(file)));
      settle(() => {
        endedCcc(file, code);
        process.exit(code);
      });
    });
  });
}

function neverReturned(file: string, cpuLimitMs: number): CccError {
  return new CccError(
    'CONFIG_UNREADABLE',
    `The config file ${file} did not finish loading: it computed for ${cpuLimitMs / 1000}s of CPU time without returning (an endless loop?). A config file must only export the configuration.`,
    { data: { file } },
  );
}

function neverAnswered(file: string, waitLimitMs: number): CccError {
  return new CccError(
    'CONFIG_UNREADABLE',
    `The config file ${file} did not finish loading within ${waitLimitMs / 1000}s: it waits on something that never answers (a top-level await that never settles). Load the configuration without waiting on anything that may not answer.`,
    { data: { file } },
  );
}

function stoppedEarly(file: string): CccError {
  return new CccError(
    'CONFIG_UNREADABLE',
    `The config file ${file} stopped before it exported anything: a top-level await in it never settles (or it called process.exit). Load the configuration without waiting on anything that may not answer.`,
    { data: { file } },
  );
}

function outOfMemory(file: string, heapMb: number): CccError {
  return new CccError(
    'CONFIG_UNREADABLE',
    `The config file ${file} ran out of memory while loading (limit ${heapMb} MB): it allocates without end. A config file must only export the configuration.`,
    { data: { file } },
  );
}

/** What the file threw, as an Error with its message (config-files.ts names the file). */
function thrownBy(result: Extract<ConfigWorkerResult, { ok: false }>): Error {
  const error = new Error(result.message);
  error.name = result.name;
  if (result.stack) error.stack = result.stack;
  if (result.filepath) (error as Error & { filepath?: string }).filepath = result.filepath;
  return error;
}

/** The config's `process.exit(code)` ended the load: ccc ends with that code, saying which file did it. */
function endedCcc(file: string, code: number): void {
  try {
    fs.writeSync(
      2,
      `ccc: the config file ${file} ended ccc while it was loading (exit code ${code}; a process.exit call in it?). A config file must only export the configuration.\n`,
    );
  } catch {
    // stderr is gone: the exit code is all that is left
  }
}

/** Markers of what the thread could not send, back as stand-ins of the same kind (validation says "got a function"). */
function revive(value: unknown, seen = new Set<object>()): unknown {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  const { [UNCLONABLE]: marker, text } = value as Record<string, unknown>;
  if (marker === 'function') return Object.assign(() => {}, { toString: () => String(text) });
  if (marker === 'symbol') return Symbol(String(text).replace(/^Symbol\((.*)\)$/s, '$1'));
  if (Array.isArray(value)) value.forEach((item, i) => (value[i] = revive(item, seen)));
  else if (Object.getPrototypeOf(value) === Object.prototype)
    for (const [key, item] of Object.entries(value)) (value as Record<string, unknown>)[key] = revive(item, seen);
  return value;
}

/** The thread's script: beside this module in dist/config/, dist/config/ from the Stop hook's bundle (dist/hook/), the build from the sources under test. */
function workerFile(): string {
  const candidates = ['./config-worker.js', '../config/config-worker.js', '../../dist/config/config-worker.js'].map((file) =>
    fileURLToPath(new URL(file, import.meta.url)),
  );
  return candidates.find((file) => fs.existsSync(file)) ?? candidates[0]!;
}
