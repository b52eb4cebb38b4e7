/**
 * A config file that is code runs while ccc starts, and it can end the launch, or never let it
 * go on: a top-level await that never settles, a synchronous endless loop (no signal handler of
 * ccc's would ever run again: Ctrl-C and SIGTERM did nothing), an allocation without end (a V8
 * abort at ~4 GB), a `process.exit` call. So it loads in a thread of its own (config-worker.ts),
 * bounded in time and in heap, while ccc's own thread stays free for signals and the bound. Each
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

/** A config's own work (reading a file, a quick lookup) fits well within this; past it, it never ends. */
const CONFIG_LOAD_LIMIT_MS = 5_000;
/** Far above what a configuration (and the TypeScript transpiler that loads it) needs. */
const CONFIG_HEAP_MB = 256;

export interface ConfigLoadLimits {
  limitMs?: number;
  heapMb?: number;
  /** jiti's transpile cache for a TypeScript config. */
  cacheDir?: string;
}

/** The value `file` exports (its default export for TypeScript), loaded in a bounded thread. */
export function loadConfigModule(file: string, limits: ConfigLoadLimits = {}): Promise<unknown> {
  const limitMs = limits.limitMs ?? CONFIG_LOAD_LIMIT_MS;
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
      clearTimeout(timer);
      finish();
    };
    const timer = setTimeout(() => {
      settle(() => reject(neverFinished(file, limitMs)));
      void worker.terminate();
    }, limitMs);
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

function neverFinished(file: string, limitMs: number): CccError {
  return new CccError(
    'CONFIG_UNREADABLE',
    `The config file ${file} did not finish loading within ${limitMs / 1000}s: it never returns (an endless loop?) or waits on something that never answers (a top-level await that never settles). Load the configuration without waiting on anything that may not answer.`,
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
