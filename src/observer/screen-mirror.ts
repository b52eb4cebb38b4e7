/**
 * The main-thread side of the screen worker: keeps the last `tailBytes` of the session's output
 * and answers "what does the screen look like" for late joiners. The session pays nothing for it
 * between joins: output is only copied into a ring, and the worker (an isolate that parses the
 * tail into a headless terminal) runs around snapshots only. It never makes the caller wait, and
 * the bytes sent to observers are never affected, only the snapshot: a TUI redraws itself, so a
 * screen rebuilt from a tail that starts mid-frame becomes right with its next frame.
 *
 * At most one snapshot is asked of the worker at a time, and every joiner waiting when it comes
 * back shares it if it is not older than where that joiner joined: the snapshot says the stream
 * position it shows, and each joiner is sent its held output from exactly there. Observers
 * connecting and dropping faster than the worker serializes a screen otherwise queued one
 * request (and one screen of up to `maxBytes`) each, for joiners long gone: the worker fell ever
 * further behind and ccc's memory grew with it. A joiner that leaves takes its place in the queue
 * with it, and the request itself is withdrawn when nobody waits for it any more.
 */
import type { MirrorReply, MirrorRequest, ScreenWorkerData, ScreenWorkerPort } from './screen-worker-protocol.js';
import type { ObserverLogger } from './observer-logger.js';
import { ByteRing } from '../pty/byte-ring.js';
import { spawnScreenProcess } from './screen-process.js';
import { errorText } from '../errors.js';
import { childEndText } from '../process/child-end.js';

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
   * Screen at the first safe place at or after `from` (joiners waiting together get the same
   * object); undefined when the worker is gone or `signal` aborted first (a joiner that left).
   */
  snapshot(from: number, maxBytes: number, signal?: AbortSignal): Promise<ScreenSnapshot | undefined>;
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
  /** Starts the worker thread; tests give a fake one. */
  spawnWorker?: (data: ScreenWorkerData) => ScreenWorkerPort;
}

interface Joiner {
  from: number;
  maxBytes: number;
  resolve: (snapshot: ScreenSnapshot | undefined) => void;
  /** Takes the joiner out of the queue (it left). */
  unlisten: () => void;
}

/**
 * The worker (a process with a terminal and its scrollback) ends when no
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
  /** The one request the worker is working on: the stream position it was asked at, and its size bound. */
  let asked: { id: number; from: number; maxBytes: number } | undefined;
  /** Joiners waiting for a screen, in join order. */
  let joiners: Joiner[] = [];
  const spawn = options.spawnWorker ?? spawnScreenWorker;

  const ensureWorker = (): ScreenWorkerPort => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (worker) return worker;
    const started = spawn({ ...size, scrollbackLines: options.scrollbackLines });
    started.on('message', onReply);
    started.on('error', (error) => die('worker error', error));
    started.on('exit', (code, signal) => die(`worker ${childEndText({ exitCode: code, signal })}`));
    worker = started;
    return started;
  };
  /** Every snapshot rebuilds the screen from the tail: an idle worker can go. */
  const retireWhenIdle = () => {
    if (asked || joiners.length > 0 || !worker) return;
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
   * While a request is out it is fed as output comes, so a screen asked for inside an escape
   * sequence is taken where the sequence ends, not when the worker gives up waiting.
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
      error: error === undefined ? undefined : errorText(error),
    });
    asked = undefined;
    settle(joiners, undefined);
  }

  /** Answers `served` (taking them out of the queue). */
  function settle(served: Joiner[], snapshot: ScreenSnapshot | undefined): void {
    joiners = joiners.filter((joiner) => !served.includes(joiner));
    for (const joiner of served) {
      joiner.unlisten();
      joiner.resolve(snapshot);
    }
  }

  /** Asks the worker for one screen that suits every joiner waiting now, unless a request is out. */
  function ask(): void {
    if (asked || !alive) return;
    if (joiners.length === 0) return retireWhenIdle();
    // The worker gets everything up to the latest join first, so no joiner waits for more output.
    feed();
    const from = Math.max(...joiners.map((joiner) => joiner.from));
    const maxBytes = Math.min(...joiners.map((joiner) => joiner.maxBytes));
    asked = { id: nextId++, from, maxBytes };
    post({ type: 'snapshot', id: asked.id, from, maxBytes });
  }

  function onReply(reply: MirrorReply): void {
    // A withdrawn request may still be answered (the worker had already sent it): nobody wants it.
    if (!asked || reply.id !== asked.id) return;
    const { maxBytes } = asked;
    asked = undefined;
    const snapshot = { position: reply.position, data: reply.data };
    // Joiners that came meanwhile take it too unless it is older than where they joined.
    settle(
      joiners.filter((joiner) => joiner.from <= snapshot.position && joiner.maxBytes >= maxBytes),
      snapshot,
    );
    ask();
  }

  /** A joiner left: it waits no more, and a request that nobody waits for is withdrawn. */
  function leave(joiner: Joiner): void {
    settle([joiner], undefined);
    if (asked && joiners.length === 0) {
      post({ type: 'cancel', id: asked.id });
      asked = undefined;
      retireWhenIdle();
    }
  }

  return {
    write(batch) {
      written += batch.length;
      tail.write(batch);
      if (asked) feed();
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
    snapshot(from, maxBytes, signal) {
      if (!alive || signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const onAbort = () => leave(joiner);
        const joiner: Joiner = { from, maxBytes, resolve, unlisten: () => signal?.removeEventListener('abort', onAbort) };
        signal?.addEventListener('abort', onAbort, { once: true });
        joiners.push(joiner);
        ask();
      });
    },
    async close() {
      if (!alive) return;
      alive = false;
      if (idleTimer) clearTimeout(idleTimer);
      asked = undefined;
      settle(joiners, undefined);
      const last = worker;
      worker = undefined;
      last?.removeAllListeners('exit');
      await last?.terminate();
    },
  };
}

/** The screen worker in a process of its own (screen-process.ts). */
export function spawnScreenWorker(data: ScreenWorkerData): ScreenWorkerPort {
  return spawnScreenProcess(data);
}
