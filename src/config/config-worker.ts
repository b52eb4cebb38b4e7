/**
 * The thread a config file that is code (`ccc.config.ts`, `.js`, `.mjs`, `.cjs`) runs in while it
 * loads (load-guard.ts starts it): its value comes back as a structured clone, with what a clone
 * cannot carry (a function, a symbol) replaced by a marker that load-guard.ts turns back into a
 * stand-in of the same kind, so that validation names it as before.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { Loader } from 'cosmiconfig';
import { importUserModule } from './user-module.js';
import { UNCLONABLE, type ConfigWorkerData, type ConfigWorkerResult } from './config-worker-protocol.js';

const TYPESCRIPT = /\.(c|m)?ts$/;

async function load({ file, cacheDir }: ConfigWorkerData): Promise<unknown> {
  if (TYPESCRIPT.test(file)) {
    const loaded = await importUserModule(file, { cacheDir });
    return loaded.default ?? loaded;
  }
  // Required (CommonJS): an ESM import would scan it for export names first.
  const { defaultLoaders } = createRequire(import.meta.url)('cosmiconfig') as typeof import('cosmiconfig');
  const ext = /\.[^.]+$/.exec(file)?.[0] ?? '.js';
  const loader = (defaultLoaders as Record<string, Loader | undefined>)[ext] ?? defaultLoaders['.js'];
  return loader(file, fs.readFileSync(file, 'utf8'));
}

/** `value` with every function and symbol replaced by a marker; cycles kept as they are (a clone carries them). */
function cloneable(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return { [UNCLONABLE]: typeof value, text: String(value) };
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(cloneable(item, seen));
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    try {
      return structuredClone(value);
    } catch {
      return { [UNCLONABLE]: 'object', text: Object.prototype.toString.call(value) };
    }
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) out[key] = cloneable(item, seen);
  return out;
}

const data = workerData as ConfigWorkerData;
load(data).then(
  (value) => parentPort!.postMessage({ ok: true, value: cloneable(value) } satisfies ConfigWorkerResult),
  (error: unknown) => {
    const e = error instanceof Error ? error : new Error(String(error));
    const filepath = (error as { filepath?: unknown } | null)?.filepath;
    parentPort!.postMessage({
      ok: false,
      message: e.message,
      name: e.name,
      ...(e.stack ? { stack: e.stack } : {}),
      ...(typeof filepath === 'string' ? { filepath } : {}),
    } satisfies ConfigWorkerResult);
  },
);
