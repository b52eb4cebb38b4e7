/**
 * The main-thread side of the screen worker: keeps the last `tailBytes` of the session's output
 * and answers "what does the screen look like" for late joiners. The session pays nothing for it
 * between joins: output is only copied into a ring, and the worker (an isolate that parses the
 * tail into a headless terminal) runs around snapshots only. It never makes the caller wait, and
 * the bytes sent to observers are never affected, only the snapshot: a TUI redraws itself, so a
 * screen rebuilt from a tail that starts mid-frame becomes right with its next frame.
 */
import { Worker } from 'node:worker_threads';
import type { MirrorReply, MirrorRequest, ScreenWorkerData } from './screen-worker-protocol.js';
import type { ObserverLogger } from './observer-logger.js';
import { ByteRing } from '../pty/byte-ring.js';

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
  tailBytes: number;
  /** The worker ends after this long without a snapshot (default 250 ms); the next one starts it again. */
  idleWorkerMs?: number;
  logger: ObserverLogger;
}

/**
 * The worker (a V8 isolate of its own with a terminal and its scrollback, 15–20 MB) ends when no
 * joiner asked for this long: a burst of joiners shares it, a flood right after does not carry it.
 */
const IDLE_WORKER_MS = 250;

export function startScreenMirror(options: ScreenMirrorOptions): ScreenMirror {
  let size = { cols: options.cols, rows: options.rows };
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let alive = true;
  let written = 0; // stream position after everything given to write()
  // The stream position the running worker's terminal has been given up to, while it still follows
  // one continuous stream (undefined: no worker yet, or the stream was replaced).
  let fed: number | undefined;
  const tail = new ByteRing(options.tailBytes);
  let nextId = 1;
  const pending = new Map<number, (snapshot: ScreenSnapshot | undefined) => void>();

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
  /** Every snapshot rebuilds the screen from the tail: an idle worker can go. */
  const retireWhenIdle = () => {
    if (pending.size > 0 || !worker) return;
    idleTimer = setTimeout(() => {
      const idle = worker;
      worker = undefined;
      fed = undefined;
      idle?.removeAllListeners('exit');
      void idle?.terminate();
    }, options.idleWorkerMs ?? IDLE_WORKER_MS);
    idleTimer.unref();
  };
  /** `data`, a buffer of its own, is handed over rather than copied again. */
  const post = (message: MirrorRequest, data?: Buffer) => {
    if (alive) ensureWorker().postMessage(message, data ? [data.buffer as ArrayBuffer] : []);
  };

  /**
   * The worker gets what it has not seen yet: only the new bytes while its terminal still follows
   * the stream (a burst of joiners parses the tail once), the whole tail on a fresh terminal otherwise.
   */
  function feed(): void {
    if (worker && fed !== undefined && written - fed <= tail.length) {
      if (written > fed) {
        const data = tail.last(written - fed);
        post({ type: 'write', at: fed, data }, data);
      }
    } else {
      const data = tail.contents();
      post({ type: 'reset', at: written - data.length, data }, data);
    }
    fed = written;
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
    const resolve = pending.get(reply.id);
    pending.delete(reply.id);
    resolve?.({ position: reply.position, data: reply.data });
    retireWhenIdle();
  }

  return {
    write(batch) {
      written += batch.length;
      tail.write(batch);
    },
    replaceTail(data) {
      written += data.length;
      tail.replace(data);
      fed = undefined;
    },
    resize(cols, rows) {
      size = { cols, rows };
      if (worker) post({ type: 'resize', cols, rows });
    },
    snapshot(from, maxBytes) {
      if (!alive) return Promise.resolve(undefined);
      // The worker gets everything up to `from` first, so the joiner does not wait for more output.
      feed();
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
