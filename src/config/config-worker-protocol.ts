/** What ccc and a config file's loading thread (config-worker.ts, started by load-guard.ts) send each other. */
export interface ConfigWorkerData {
  file: string;
  /** jiti's transpile cache (TypeScript files only). */
  cacheDir?: string;
}

/** What the thread posts: the file's value, or what it threw (its message and stack). */
export type ConfigWorkerResult = { ok: true; value: unknown } | { ok: false; message: string; name: string; stack?: string; filepath?: string };

/** The key of a marker that stands for a value a structured clone cannot carry (a function, a symbol). */
export const UNCLONABLE = '__ccc_unclonable__';
