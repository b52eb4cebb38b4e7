/**
 * A user's reporter (reporter-module.ts) behind a Reporter, in a worker thread of its own
 * (user-reporter-worker.ts), so that nothing it does reaches the run: a throw is a warning (the
 * first of each method, and the reporter keeps being called), a module that cannot load is a
 * warning and the run goes on without it, a loop that never yields or `process.exit` ends only
 * its thread, a write to stdout goes to the session log (never into `--json` or the TUI), and its
 * heap is bounded. The run never waits for it but at its end, CLOSE_MS at most, for its `close`.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Reporter } from './reporter.js';
import type { ReporterFromWorker, ReporterToWorker, ReporterWorkerData } from './user-reporter-messages.js';

/** How long the run's end waits for a reporter's `close`. */
const CLOSE_MS = 5000;
/** Lines of a reporter's stdout and stderr kept in the log. */
const OUTPUT_LINES_LOGGED = 200;

export interface UserReporterOptions extends ReporterWorkerData {
  /** The heap its thread may use (MB), as a checker plugin's (`supervisor.plugin_max_memory_mb`). */
  maxMemoryMb: number;
  warn: (message: string) => void;
  /** Its output lines, for the session log. */
  log: (message: string) => void;
}

export function userReporter(options: UserReporterOptions): Reporter {
  const name = `reporter "${options.specifier}"`;
  const data: ReporterWorkerData = {
    specifier: options.specifier,
    cwd: options.cwd,
    mode: options.mode,
    ...(options.moduleCacheDir ? { moduleCacheDir: options.moduleCacheDir } : {}),
  };
  const worker = new Worker(workerFile(), {
    workerData: data,
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb, maxYoungGenerationSizeMb: Math.max(1, Math.min(32, Math.floor(options.maxMemoryMb / 16))) },
  });
  worker.unref();
  let gone: string | undefined;
  let wantsFrames = true;
  const failed = new Set<string>();
  let closed: (() => void) | undefined;
  worker.on('message', (message: ReporterFromWorker) => {
    if (message.type === 'ready') wantsFrames = message.onFrame;
    else if (message.type === 'invalid') {
      gone = 'could not be loaded';
      options.warn(`${name} could not be loaded: ${message.message}; the run goes on without it`);
    } else if (message.type === 'failed') {
      if (failed.has(message.method)) return;
      failed.add(message.method);
      options.warn(`${name} threw in ${message.method}: ${message.message} (said once; it keeps being called)`);
    } else closed?.();
  });
  worker.on('error', (error) => {
    gone = 'crashed';
    options.warn(`${name} crashed: ${error.message}; the run goes on without it`);
  });
  worker.on('exit', (code) => {
    gone ??= `ended (process.exit(${code}))`;
    if (gone.startsWith('ended')) options.warn(`${name} ${gone}; the run goes on without it`);
    closed?.();
  });
  captureOutput(worker, name, options.log);

  const post = (message: ReporterToWorker) => {
    if (gone) return;
    try {
      worker.postMessage(message);
    } catch {
      // an event structured clone cannot carry: this reporter misses it
    }
  };
  return {
    onEvent: (event) => post({ type: 'event', event }),
    onFrame: (frame) => {
      if (wantsFrames) post({ type: 'frame', frame });
    },
    async close(end) {
      if (!gone) {
        const done = new Promise<void>((resolve) => (closed = resolve));
        post({ type: 'close', end });
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([done.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), CLOSE_MS)))]);
        clearTimeout(timer);
        if (late) options.warn(`${name} did not finish its close within ${CLOSE_MS} ms; stopped`);
      }
      gone ??= 'closed';
      await worker.terminate();
    },
  };
}

function captureOutput(worker: Worker, name: string, log: (message: string) => void): void {
  let logged = 0;
  for (const stream of ['stdout', 'stderr'] as const) {
    let partial = '';
    const emit = (line: string) => {
      if (logged++ < OUTPUT_LINES_LOGGED) log(`${name} wrote to ${stream}: ${line.length > 2000 ? `${line.slice(0, 2000)}…` : line}`);
    };
    worker[stream].setEncoding('utf8');
    worker[stream].on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) emit(line);
    });
    worker[stream].on('end', () => partial && emit(partial));
  }
}

/** The worker's script: beside this module once built; from `dist/` when this runs from source (tests). */
function workerFile(): string {
  const built = fileURLToPath(new URL('./user-reporter-worker.js', import.meta.url));
  return fs.existsSync(built) ? built : fileURLToPath(new URL('../../dist/reporters/user-reporter-worker.js', import.meta.url));
}
