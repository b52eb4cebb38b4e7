/**
 * Fans the session out to its observers. The producer side (publish*) never waits and does no
 * per-observer work on the pty path: chunks are only copied into one reused batch buffer, and one
 * setImmediate later the batch is encoded once into a pooled message (frame-pool.ts), handed to
 * every observer's bounded queue and copied into the screen mirror's tail: a flood allocates nothing
 * per batch.
 * Everything else (frames, events, size changes) first flushes that batch, so each observer sees
 * output and events in the order they were published.
 */
import { encodeMessage, encodePty } from './protocol.js';
import type { ObserverEvent, ObserverHello } from './protocol.js';
import { ObserverConnection } from './observer-connection.js';
import { CLOSE_FELL_BEHIND, type ObserverSocket } from './observer-connection.js';
import type { ScreenMirror } from './screen-mirror.js';
import type { ObserverLogger } from './observer-logger.js';
import { framePool } from './frame-pool.js';
import { ReusedBuffer } from '../pty/reused-buffer.js';
import { trafficLog, type TrafficLog } from './traffic-log.js';
import { OutputWatch, type OutputSource } from './output-watch.js';
import { DisposableStore } from '../lifetime/disposable-store.js';

export type { OutputSource } from './output-watch.js';

/** Older events fall off the replay list a joiner gets; live observers have seen them all. */
const MAX_EVENT_HISTORY = 1000;
const CLOSE_TOO_MANY = 1013;
const CLOSE_SESSION_ENDED = 1001;
/** At the end, a reading observer gets this long to receive what is still queued for it. */
const END_GRACE_MS = 3000;

export interface ObserverHubOptions {
  hello: ObserverHello;
  allowInput: boolean;
  maxObservers: number;
  maxQueueBytes: number;
  /**
   * What all observers together may hold: with many observers each gets an equal share, down to
   * `minQueueBytes` (room for a snapshot), never more than `maxQueueBytes`. Without it, each of
   * many observers behind a flood held its whole queue (see bench/RESULTS.md, "Observer queues: a
   * shared budget").
   */
  totalQueueBytes?: number;
  minQueueBytes?: number;
  /** Largest snapshot sent to a joiner (serialized screen plus as much scrollback as fits). */
  snapshotBytes: number;
  mirror: ScreenMirror;
  logger: ObserverLogger;
  /** Joiners wait for `setOutputSource` before their snapshot (the source starts after the server). */
  awaitOutputSource?: boolean;
}

export interface ObserverHub {
  /** Copies `chunk`: the caller may reuse it once this returns. */
  publishPty(chunk: Buffer): void;
  /** The last output, kept by the source while nobody watched (see `OutputSource`). */
  replaceTail(tail: Buffer): void;
  /** Undefined: the output comes without asking (joiners waiting for the decision go on). */
  setOutputSource(source: OutputSource | undefined): void;
  publishFrame(frame: object): void;
  publishEvent(event: ObserverEvent): void;
  /**
   * `lost` bytes of output never reached ccc (the native relay's copy overflowed while this
   * process was busy): every observer has a hole in its screen, so each is closed to reconnect
   * for a fresh snapshot. The user's terminal lost nothing.
   */
  outputGap(lost: number): void;
  setSession(id: string): void;
  resize(cols: number, rows: number): void;
  /** `max_observers` are watching: a joiner now would be refused (not once the session has ended). */
  isFull(): boolean;
  /** Adds an observer; the returned connection is undefined when it was refused. */
  join(socket: ObserverSocket): ObserverConnection | undefined;
  leave(connection: ObserverConnection): void;
  readonly observerCount: number;
  /** Sends `bye` after everything published, then closes every observer. */
  end(): void;
}

export function createObserverHub(options: ObserverHubOptions): ObserverHub {
  return new FanOut(options);
}

/** The hub: its connections, the output batch, the event history; `end()` releases them all. */
class FanOut implements ObserverHub {
  readonly #options: ObserverHubOptions;
  readonly #store = new DisposableStore();
  readonly #connections = new Set<ObserverConnection>();
  readonly #traffic: TrafficLog;
  readonly #history: Buffer[] = [];
  readonly #pendingOutput = new ReusedBuffer(64 * 1024, 4 * 1024 * 1024);
  readonly #watch: OutputWatch;
  #hello: ObserverHello;
  /** Stream position after everything flushed. */
  #position = 0;
  #scheduled = false;

  constructor(options: ObserverHubOptions) {
    this.#options = options;
    this.#hello = { ...options.hello };
    this.#traffic = trafficLog(options.logger);
    this.#watch = this.#store.add(new OutputWatch(options.awaitOutputSource ?? false));
    // At the end the connections are said bye to and closed (see `end`), then forgotten.
    this.#store.defer(() => this.#connections.clear());
  }

  get #ended(): boolean {
    return this.#store.isDisposed;
  }

  get observerCount(): number {
    return this.#connections.size;
  }

  publishPty(chunk: Buffer): void {
    if (this.#ended || chunk.length === 0) return;
    this.#pendingOutput.append(chunk);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  publishFrame(frame: object): void {
    if (this.#ended) return;
    const message = encodeMessage({ type: 'frame', frame });
    if (message.length > this.#options.maxQueueBytes / 2) {
      this.#options.logger.warn('observer: frame too large to send to observers, skipped', { bytes: message.length });
      return;
    }
    this.#broadcast(message);
  }

  publishEvent(event: ObserverEvent): void {
    if (this.#ended) return;
    const message = encodeMessage({ type: 'event', event });
    this.#history.push(message);
    if (this.#history.length > MAX_EVENT_HISTORY) this.#history.shift();
    this.#broadcast(message);
  }

  outputGap(lost: number): void {
    this.#flush();
    const reason = `observers fell behind the output (${lost} bytes missed); reconnect for a fresh screen`;
    for (const connection of this.#connections) connection.close(CLOSE_FELL_BEHIND, reason);
    if (this.#connections.size > 0) this.#options.logger.warn('observer: all dropped', { reason, observers: this.#connections.size });
    this.#connections.clear();
    this.#watch.update(0, true);
  }

  replaceTail(tail: Buffer): void {
    if (this.#ended) return;
    this.#flush();
    this.#position += tail.length;
    this.#options.mirror.replaceTail(tail);
  }

  setOutputSource(source: OutputSource | undefined): void {
    this.#watch.setSource(source, this.#connections.size);
  }

  setSession(id: string): void {
    this.#hello = { ...this.#hello, session_id: id };
    this.#broadcast(this.#helloMessage());
  }

  resize(cols: number, rows: number): void {
    if (cols === this.#hello.cols && rows === this.#hello.rows) return;
    this.#hello = { ...this.#hello, cols, rows };
    this.#flush();
    this.#options.mirror.resize(cols, rows);
    this.#broadcast(this.#helloMessage());
  }

  isFull(): boolean {
    return !this.#ended && this.#connections.size >= this.#options.maxObservers;
  }

  join(socket: ObserverSocket): ObserverConnection | undefined {
    const { maxObservers, mirror, snapshotBytes, logger } = this.#options;
    if (this.#ended) {
      socket.close(CLOSE_SESSION_ENDED, 'session ended');
      return undefined;
    }
    if (this.#connections.size >= maxObservers) {
      socket.close(CLOSE_TOO_MANY, `too many observers (max ${maxObservers}); try again later`);
      return undefined;
    }
    this.#flush();
    const connection = new ObserverConnection(
      socket,
      this.#position,
      () => this.#queueLimit(),
      (dropped, reason) => this.#drop(dropped, reason),
    );
    this.#connections.add(connection);
    this.#traffic.joined(this.#connections.size);
    this.#watch.update(this.#connections.size);
    connection.sendNow(this.#helloMessage());
    const events = this.#history.slice();
    // Once the source's tail arrived the stream has moved on (`replaceTail`): the snapshot starts there.
    void this.#watch.sourceKnown
      .then(() => this.#watch.watching)
      // One that leaves before its screen is made (observers connecting and dropping) costs no
      // snapshot and no line: the signal takes it out of the mirror's queue.
      .then(() => mirror.snapshot(this.#position, snapshotBytes, connection.closedSignal))
      .then((snapshot) => {
        if (!connection.isOpen) return;
        if (!snapshot) logger.warn('observer: no screen snapshot for a joiner; it gets live output only');
        connection.start(snapshot, events);
      });
    return connection;
  }

  leave(connection: ObserverConnection): void {
    connection.markClosed();
    if (this.#connections.delete(connection)) this.#traffic.left(this.#connections.size);
    this.#watch.update(this.#connections.size);
  }

  end(): void {
    if (this.#ended) return;
    this.#flush();
    this.#traffic.flush(this.#connections.size);
    const bye = encodeMessage({ type: 'bye' });
    for (const connection of this.#connections) {
      connection.sendNow(bye);
      connection.close(CLOSE_SESSION_ENDED, 'session ended', END_GRACE_MS);
    }
    this.#store.dispose();
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pendingOutput.length === 0) return;
    // Reused for the next batch: observers get the encoded message, joiners and the mirror copy.
    const batch = this.#pendingOutput.bytes();
    const at = this.#position;
    this.#position += batch.length;
    let encoded: Buffer | undefined;
    let copied: Buffer | undefined;
    const encode = () => (encoded ??= encodePty(batch, false, (length) => framePool.acquire(length)));
    // Joiners waiting for their screen hold the batch: one copy for them all.
    const copy = () => (copied ??= Buffer.from(batch));
    for (const connection of this.#connections) connection.deliverPty(at, encode, copy);
    if (encoded) framePool.release(encoded); // each socket write holds it until it is out
    this.#options.mirror.write(batch);
    this.#pendingOutput.clear();
  }

  #broadcast(message: Buffer): void {
    this.#flush();
    for (const connection of this.#connections) connection.deliver(message);
  }

  #helloMessage(): Buffer {
    return encodeMessage({ type: 'hello', session: this.#hello, input: this.#options.allowInput });
  }

  #queueLimit(): number {
    const { totalQueueBytes, maxQueueBytes, minQueueBytes } = this.#options;
    const share = Math.floor((totalQueueBytes ?? Infinity) / Math.max(1, this.#connections.size));
    return Math.min(maxQueueBytes, Math.max(minQueueBytes ?? 0, share));
  }

  #drop(connection: ObserverConnection, reason: string): void {
    this.#connections.delete(connection);
    this.#traffic.dropped(reason, this.#connections.size);
    this.#watch.update(this.#connections.size);
  }
}
