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
  /**
   * Screen at the first safe place at or after `from`; undefined when the worker is gone or
   * `wanted` said no before the work was done (a joiner that left costs no parse).
   */
  snapshot(from: number, maxBytes: number, wanted?: () => boolean): Promise<ScreenSnapshot | undefined>;
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
  /** Starts the worker; tests give a fake one. */
  spawnWorker?: (data: ScreenWorkerData) => ScreenWorkerPort;
}

/** What the mirror uses of its worker thread. */
export interface ScreenWorkerPort {
  postMessage(message: MirrorRequest, transfer: ArrayBuffer[]): void;
  on(event: 'message', listener: (reply: MirrorReply) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  removeAllListeners(event: 'exit'): unknown;
  terminate(): Promise<unknown>;
}

interface Joiner {
  from: number;
  maxBytes: number;
  wanted: () => boolean;
  resolve: (snapshot: ScreenSnapshot | undefined) => void;
}

/**
 * The worker (a V8 isolate of its own with a terminal and its scrollback, 15–20 MB) ends when no
 * joiner asked for this long: a burst of joiners shares it, a flood right after does not carry it.
 */
const IDLE_WORKER_MS = 250;

export function startScreenMirror(options: ScreenMirrorOptions): ScreenMirror {
  let size = { cols: options.cols, rows: options.rows };
  let worker: ScreenWorkerPort | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let alive = true;
  let written = 0; // stream position after everything given to write()
  // The stream position the running worker's terminal has been given up to, while it still follows
  // one continuous stream (undefined: no worker yet, or the stream was replaced).
  let fed: number | undefined;
  const tail = new ByteRing(options.tailBytes);
  let nextId = 1;
  // At most one snapshot is asked of the worker at a time; joiners that come meanwhile wait for
  // the next one and share it. Observers connecting and dropping faster than the worker parses and
  // serializes otherwise queued one request each: the worker fell ever further behind, and every
  // answer, a screen of up to `maxBytes`, was made and sent for a joiner long gone.
  let asked: { id: number; maxBytes: number; joiners: Joiner[] } | undefined;
  let queued: Joiner[] = [];
  const spawn = options.spawnWorker ?? spawnScreenWorker;

  const ensureWorker = (): ScreenWorkerPort => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (worker) return worker;
    const started = spawn({ ...size, scrollbackLines: options.scrollbackLines });
    started.on('message', onReply);
    started.on('error', (error) => die('worker error', error));
    started.on('exit', (code) => die(`worker exited with code ${code}`));
    worker = started;
    return started;
  };
  /** Every snapshot rebuilds the screen from the tail: an idle worker can go. */
  const retireWhenIdle = () => {
    if (asked || !worker) return;
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
    settleAll();
  }

  function settleAll(): void {
    const left = [...(asked?.joiners ?? []), ...queued];
    asked = undefined;
    queued = [];
    for (const joiner of left) joiner.resolve(undefined);
  }

  /** Asks the worker for one screen that suits every joiner still waiting, if any. */
  function ask(): void {
    if (asked || !alive) return;
    const joiners = queued.filter((joiner) => joiner.wanted() || (joiner.resolve(undefined), false));
    queued = [];
    if (joiners.length === 0) return retireWhenIdle();
    // The worker gets everything up to `from` first, so the joiners do not wait for more output.
    feed();
    const from = Math.max(...joiners.map((joiner) => joiner.from));
    const maxBytes = Math.min(...joiners.map((joiner) => joiner.maxBytes));
    asked = { id: nextId++, maxBytes, joiners };
    post({ type: 'snapshot', id: asked.id, from, maxBytes });
  }

  function onReply(reply: MirrorReply): void {
    if (asked?.id !== reply.id) return;
    const snapshot = { position: reply.position, data: reply.data };
    // Joiners that came meanwhile take it too when it is not older than where they joined.
    const fits = (joiner: Joiner) => joiner.from <= reply.position && joiner.maxBytes >= asked!.maxBytes;
    const served = asked.joiners.concat(queued.filter(fits));
    queued = queued.filter((joiner) => !fits(joiner));
    asked = undefined;
    for (const joiner of served) joiner.resolve(joiner.wanted() ? snapshot : undefined);
    ask();
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
    snapshot(from, maxBytes, wanted = () => true) {
      if (!alive) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        // Joiners that left while waiting are let go at once: only live ones are held.
        queued = queued.filter((joiner) => joiner.wanted() || (joiner.resolve(undefined), false));
        queued.push({ from, maxBytes, wanted, resolve });
        ask();
      });
    },
    async close() {
      if (!alive) return;
      alive = false;
      if (idleTimer) clearTimeout(idleTimer);
      settleAll();
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
function spawnScreenWorker(data: ScreenWorkerData): ScreenWorkerPort {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = new URL(fromSource ? './screen-worker.ts' : './screen-worker.js', import.meta.url);
  const worker = new Worker(file, { workerData: data, execArgv: fromSource ? ['--import', 'jiti/register'] : [] });
  // A session that forgets to close its observer must still be able to exit.
  worker.unref();
  return worker;
}
