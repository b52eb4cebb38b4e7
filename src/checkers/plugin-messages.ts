/**
 * What ccc and a checker plugin's worker thread say to each other (isolated-plugin.ts and
 * plugin-worker.ts). Every message is structured-cloned, so a check's context crosses without its
 * functions (the logger, reportUsage and its deprecated alias reportCost): the worker rebuilds
 * them as messages back.
 */
import type { Frame } from '../frames/frame.js';
import type { CheckContext, UsageReport } from './types.js';

/** The plugin a worker loads, as configured: resolved and instantiated in the worker, never in ccc. */
export interface PluginWorkerData {
  specifier: string;
  cwd: string;
  /** The options written next to `use`, for a factory. */
  options: Record<string, unknown>;
  /** The TypeScript transpile cache (see user-module.ts). */
  moduleCacheDir?: string;
  /**
   * Only to learn the checker's name (a module listed in `plugins`): a definition answers `named`
   * without `create` being called; an older factory is still called with the options.
   */
  probe?: boolean;
}

/** A check's context without the functions: those come back as `log` and `usage` messages. */
type PortableContext = Omit<CheckContext, 'logger' | 'reportCost' | 'reportUsage'>;

export type SessionHook = 'onSessionStart' | 'onSessionEnd';

export type ToWorker =
  | { type: 'check'; id: number; ctx: PortableContext }
  | { type: 'abort'; id: number; reason: string }
  | { type: 'frame'; frame: Frame }
  | { type: 'session'; id: number; hook: SessionHook; info: { sessionId?: string; cwd: string } };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type FromWorker =
  | { type: 'ready'; name: string; hooks: { onSessionStart: boolean; onFrame: boolean; onSessionEnd: boolean } }
  | { type: 'named'; name: string }
  | { type: 'invalid'; error: PortableError }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: PortableError }
  | { type: 'log'; level: LogLevel; message: string; fields?: Record<string, unknown> }
  | { type: 'usage'; id: number; usage: UsageReport }
  /** The deprecated `reportCost`, passed on as it was called (the pipeline turns it into a usage report). */
  | { type: 'cost'; id: number; usd: number };

/** An error as it crosses the thread boundary: a CccError keeps its code and data. */
export interface PortableError {
  message: string;
  code?: string;
  data?: Record<string, unknown>;
}

const LEVELS: ReadonlySet<unknown> = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);

/**
 * Whether a message from the thread is one of the worker's: the plugin's own code shares the port
 * and may post anything on it, so ccc checks the shape before it acts on one.
 */
export function isFromWorker(value: unknown): value is FromWorker {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const call = Number.isInteger(m.id);
  const isObject = (v: unknown) => typeof v === 'object' && v !== null;
  const isError = (v: unknown) => isObject(v) && typeof (v as PortableError).message === 'string';
  switch (m.type) {
    case 'ready':
      return typeof m.name === 'string' && isObject(m.hooks);
    case 'named':
      return typeof m.name === 'string';
    case 'invalid':
      return isError(m.error);
    case 'done':
      return call;
    case 'failed':
      return call && isError(m.error);
    case 'log':
      return LEVELS.has(m.level) && typeof m.message === 'string' && (m.fields === undefined || isObject(m.fields));
    case 'usage':
      return call && isObject(m.usage);
    case 'cost':
      return call && typeof m.usd === 'number';
    default:
      return false;
  }
}
