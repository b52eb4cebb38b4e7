/**
 * The main-thread side of the screen worker: takes the session's output in batches and answers
 * "what does the screen look like" for late joiners. It never makes the caller wait: when the
 * worker falls behind by more than `maxBacklogBytes`, output is skipped (only the most recent
 * `tailBytes` are kept) and the worker restarts from a clean terminal with that tail once it has
 * caught up. A TUI redraws itself, so the snapshot becomes right again with its next frame, and the
 * bytes sent to observers are never affected, only the snapshot.
 */
import { Worker } from 'node:worker_threads';
import type { MirrorReply, MirrorRequest, ScreenWorkerData } from './screen-worker-protocol.js';
import type { ObserverLogger } from './observer-logger.js';
import { ByteRing } from './byte-ring.js';

export interface ScreenSnapshot {
  /** Stream position the snapshot was taken at; live output from here on follows it. */
  position: number;
  /** The serialized screen (escape sequences that rebuild it in a fresh terminal). */
  data: string;
}

export interface ScreenMirror {
  /** Appends output in stream order. Copies what it keeps: the caller may reuse `batch`. */
  write(batch: Buffer): void;
  /**
   * The output source kept the last bytes while nobody watched: they replace what the mirror has
   * and count as `tail.length` more bytes of the stream. Copied like `write`.
   */
  replaceTail(tail: Buffer): void;
  resize(cols: number, rows: number): void;
  /** Screen at the first safe place at or after `from`; undefined when the worker is gone. */
  snapshot(from: number, maxBytes: number): Promise<ScreenSnapshot | undefined>;
  close(): Promise<void>;
}

export interface ScreenMirrorOptions {
  cols: number;
  rows: number;
  scrollbackLines: number;
  maxBacklogBytes: number;
  tailBytes: number;
  /**
   * Parse only when a joiner asks: keep the last `tailBytes` of output and replay them into a fresh
   * terminal for each snapshot. The session then pays nothing for the mirror between joins (a
   * worker parsing every byte took half of a 2-core machine's throughput during a flood).
   */
  lazy?: boolean;
  /** A lazy mirror's worker ends after this long without a snapshot (default 250 ms); the next one starts it again. */
  idleWorkerMs?: number;
  logger: ObserverLogger;
}

/**
 * A lazy mirror's worker (a V8 isolate of its own with a terminal and its scrollback, 15–20 MB)
 * ends when no joiner asked for this long: a burst of joiners shares it, a flood right after does not carry it.
 */
const IDLE_WORKER_MS = 250;

export function startScreenMirror(options: ScreenMirrorOptions): ScreenMirror {
  let size = { cols: options.cols, rows: options.rows };
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let alive = true;
  let written = 0; // stream position after everything given to write()
  let posted = 0; // stream position after everything posted to the worker
  let parsed = 0; // stream position the worker has parsed up to
  // Lazy: the stream position the running worker's terminal has been given up to, if it is still
  // one continuous stream (undefined: none yet, or the stream was replaced).
  let lazyFed: number | undefined;
  let skipping = false;
  const tail = new ByteRing(options.tailBytes);
  let nextId = 1;
  const pending = new Map<number, (snapshot: ScreenSnapshot | undefined) => void>();

  /** The worker, started when needed: at once for an eager mirror, at a snapshot for a lazy one. */
  const ensureWorker = (): Worker => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (worker) return worker;
    const started = spawnScreenWorker({ ...size, scrollbackLines: options.scrollbackLines });
    started.on('message', onReply);
    started.on('error', (error) => die('worker error', error));
    started.on('exit', (code) => die(`worker exited with code ${code}`));
    worker = started;
    return started;
  };
  /** A lazy mirror rebuilds the screen from its tail at every snapshot: an idle worker can go. */
  const retireWhenIdle = () => {
    if (!options.lazy || pending.size > 0 || !worker) return;
    idleTimer = setTimeout(() => {
      const idle = worker;
      worker = undefined;
      lazyFed = undefined;
      idle?.removeAllListeners('exit');
      void idle?.terminate();
    }, options.idleWorkerMs ?? IDLE_WORKER_MS);
    idleTimer.unref();
  };
  /** `data`, a buffer of its own, is handed over rather than copied again. */
  const post = (message: MirrorRequest, data?: Buffer) => {
    if (alive) ensureWorker().postMessage(message, data ? [data.buffer as ArrayBuffer] : []);
  };
  /** Starts the worker's terminal afresh from the kept tail. */
  const postReset = () => {
    const data = tail.contents();
    post({ type: 'reset', at: written - data.length, data }, data);
  };

  /**
   * A lazy mirror's worker gets what it has not seen yet: only the new bytes while its terminal
   * still follows the stream (a burst of joiners parses the tail once), the whole tail otherwise.
   */
  function feedLazy(): void {
    if (worker && lazyFed !== undefined && written - lazyFed <= tail.length) {
      if (written > lazyFed) {
        const data = tail.last(written - lazyFed);
        post({ type: 'write', at: lazyFed, data }, data);
      }
    } else postReset();
    lazyFed = written;
  }

  function catchUp(): void {
    postReset();
    tail.clear();
    posted = written;
    skipping = false;
  }

  function die(reason: string, error?: unknown): void {
    if (!alive) return;
    alive = false;
    options.logger.warn('observer: screen mirror stopped; late joiners get live output only', {
      reason,
      error: error instanceof Error ? error.message : error,
    });
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  }

  function onReply(reply: MirrorReply): void {
    if (reply.type === 'ack') {
      parsed = reply.position;
      if (skipping && posted - parsed <= options.maxBacklogBytes / 2) catchUp();
      return;
    }
    const resolve = pending.get(reply.id);
    pending.delete(reply.id);
    resolve?.({ position: reply.position, data: reply.data });
    retireWhenIdle();
  }
  if (!options.lazy) ensureWorker();

  return {
    write(batch) {
      written += batch.length;
      if (!alive) return;
      if (options.lazy) return tail.write(batch);
      if (!skipping && posted - parsed + batch.length > options.maxBacklogBytes) {
        skipping = true;
        options.logger.debug('observer: screen mirror behind, skipping output for the snapshot', { backlog: posted - parsed });
      }
      if (skipping) tail.write(batch);
      else {
        const data = Buffer.allocUnsafeSlow(batch.length);
        batch.copy(data);
        post({ type: 'write', at: written - batch.length, data }, data);
        posted = written;
      }
    },
    replaceTail(data) {
      written += data.length;
      tail.replace(data);
      lazyFed = undefined;
      if (!alive || options.lazy) return;
      catchUp();
    },
    resize(cols, rows) {
      size = { cols, rows };
      if (worker) post({ type: 'resize', cols, rows });
    },
    snapshot(from, maxBytes) {
      if (!alive) return Promise.resolve(undefined);
      // The worker must get everything up to `from`, so the joiner does not wait for a catch-up.
      if (options.lazy) feedLazy();
      else if (skipping) catchUp();
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        post({ type: 'snapshot', id, from, maxBytes });
      });
    },
    async close() {
      if (!alive) return;
      alive = false;
      if (idleTimer) clearTimeout(idleTimer);
      for (const resolve of pending.values()) resolve(undefined);
      pending.clear();
      const last = worker;
      worker = undefined;
      last?.removeAllListeners('exit');
      await last?.terminate();
    },
  };
}

/**
 * The worker runs the compiled `screen-worker.js` next to this file; under vitest, which runs the
 * TypeScript sources, it loads `screen-worker.ts` through jiti's loader instead.
 */
function spawnScreenWorker(data: ScreenWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = new URL(fromSource ? './screen-worker.ts' : './screen-worker.js', import.meta.url);
  const worker = new Worker(file, { workerData: data, execArgv: fromSource ? ['--import', 'jiti/register'] : [] });
  // A session that forgets to close its observer must still be able to exit.
  worker.unref();
  return worker;
}
