/** The messages between ccc and a user's reporter thread (user-reporter.ts, user-reporter-worker.ts). */
import type { Frame } from '../frames/frame.js';
import type { SupervisorEvent } from '../loop/events.js';
import type { RunEnd } from './reporter.js';

export interface ReporterWorkerData {
  specifier: string;
  cwd: string;
  mode: string;
  moduleCacheDir?: string;
}

export type ReporterToWorker = { type: 'event'; event: SupervisorEvent } | { type: 'frame'; frame: Frame } | { type: 'close'; end: RunEnd };

export type ReporterFromWorker =
  { type: 'ready'; onFrame: boolean } | { type: 'invalid'; message: string } | { type: 'failed'; method: string; message: string } | { type: 'closed' };
