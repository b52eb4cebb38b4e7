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
import { trafficLog } from './traffic-log.js';

/** Older events fall off the replay list a joiner gets; live observers have seen them all. */
const MAX_EVENT_HISTORY = 1000;
export const CLOSE_TOO_MANY = 1013;
export const CLOSE_SESSION_ENDED = 1001;
/** At the end, a reading observer gets this long to receive what is still queued for it. */
const END_GRACE_MS = 3000;
/**
 * The source keeps copying this long after the last observer left. Every start of its copy sends
 * its whole tail (the relay's: 1 MiB); observers connecting and dropping around zero (a burst of
 * connections that died while their upgrade waited) restarted it dozens of times a second, and
 * the relay queued 100+ MiB of tails for a ccc busy with the sockets.
 */
const UNWATCH_GRACE_MS = 1000;

export interface ObserverHubOptions {
  hello: ObserverHello;
  allowInput: boolean;
  maxObservers: number;
  maxQueueBytes: number;
  /**
   * What all observers together may hold: with many observers each gets an equal share, down to
   * `minQueueBytes` (room for a snapshot), never more than `maxQueueBytes`. 50 observers behind a
   * flood otherwise held 8 MB each.
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

/**
 * Where the output comes from, when it can stop copying it while nobody watches (the native
 * relay): on at the first observer, off after the last; `watch(true)` resolves once the tail it
 * kept meanwhile was handed to `replaceTail`, so a joiner's snapshot shows the current screen.
 */
export interface OutputSource {
  watch(on: boolean): Promise<void>;
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
  /** Adds an observer; the returned connection is undefined when it was refused. */
  join(socket: ObserverSocket): ObserverConnection | undefined;
  leave(connection: ObserverConnection): void;
  readonly observerCount: number;
  /** Sends `bye` after everything published, then closes every observer. */
  end(): void;
}

export function createObserverHub(options: ObserverHubOptions): ObserverHub {
  const connections = new Set<ObserverConnection>();
  const traffic = trafficLog(options.logger);
  const history: Buffer[] = [];
  let hello: ObserverHello = { ...options.hello };
  const pendingOutput = new ReusedBuffer(64 * 1024, 4 * 1024 * 1024);
  let position = 0;
  let scheduled = false;
  let ended = false;
  let source: OutputSource | undefined;
  let watching: Promise<void> | undefined;
  let unwatchTimer: NodeJS.Timeout | undefined;
  let sourceDecided!: () => void;
  const sourceKnown = options.awaitOutputSource ? new Promise<void>((resolve) => (sourceDecided = resolve)) : Promise.resolve();

  /**
   * The source copies output only while someone watches, and a little longer (`UNWATCH_GRACE_MS`),
   * unless `now`: after a gap the next joiner needs a fresh tail, without the hole.
   */
  function updateWatch(now = false): void {
    if (!source || ended) return;
    if (connections.size > 0) {
      clearTimeout(unwatchTimer);
      unwatchTimer = undefined;
      if (!watching) watching = source.watch(true);
    } else if (watching && now) unwatch();
    else if (watching && !unwatchTimer) {
      unwatchTimer = setTimeout(unwatch, UNWATCH_GRACE_MS);
      unwatchTimer.unref();
    }
  }

  function unwatch(): void {
    clearTimeout(unwatchTimer);
    unwatchTimer = undefined;
    if (!source || ended || connections.size > 0 || !watching) return;
    watching = undefined;
    void source.watch(false);
  }

  function flush(): void {
    scheduled = false;
    if (pendingOutput.length === 0) return;
    // Reused for the next batch: observers get the encoded message, joiners and the mirror copy.
    const batch = pendingOutput.bytes();
    const at = position;
    position += batch.length;
    let encoded: Buffer | undefined;
    let copied: Buffer | undefined;
    const encode = () => (encoded ??= encodePty(batch, false, (length) => framePool.acquire(length)));
    // Joiners waiting for their screen hold the batch: one copy for them all.
    const copy = () => (copied ??= Buffer.from(batch));
    for (const connection of connections) connection.deliverPty(at, encode, copy);
    if (encoded) framePool.release(encoded); // each socket write holds it until it is out
    options.mirror.write(batch);
    pendingOutput.clear();
  }

  function broadcast(message: Buffer): void {
    flush();
    for (const connection of connections) connection.deliver(message);
  }

  const helloMessage = () => encodeMessage({ type: 'hello', session: hello, input: options.allowInput });

  const queueLimit = () => {
    const share = Math.floor((options.totalQueueBytes ?? Infinity) / Math.max(1, connections.size));
    return Math.min(options.maxQueueBytes, Math.max(options.minQueueBytes ?? 0, share));
  };

  const drop = (connection: ObserverConnection, reason: string) => {
    connections.delete(connection);
    traffic.dropped(reason, connections.size);
    updateWatch();
  };

  return {
    publishPty(chunk) {
      if (ended || chunk.length === 0) return;
      pendingOutput.append(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    publishFrame(frame) {
      if (ended) return;
      const message = encodeMessage({ type: 'frame', frame });
      if (message.length > options.maxQueueBytes / 2) {
        options.logger.warn('observer: frame too large to send to observers, skipped', { bytes: message.length });
        return;
      }
      broadcast(message);
    },
    publishEvent(event) {
      if (ended) return;
      const message = encodeMessage({ type: 'event', event });
      history.push(message);
      if (history.length > MAX_EVENT_HISTORY) history.shift();
      broadcast(message);
    },
    outputGap(lost) {
      flush();
      const reason = `observers fell behind the output (${lost} bytes missed); reconnect for a fresh screen`;
      for (const connection of connections) connection.close(CLOSE_FELL_BEHIND, reason);
      if (connections.size > 0) options.logger.warn('observer: all dropped', { reason, observers: connections.size });
      connections.clear();
      updateWatch(true);
    },
    replaceTail(tail) {
      if (ended) return;
      flush();
      position += tail.length;
      options.mirror.replaceTail(tail);
    },
    setOutputSource(next) {
      source = next;
      updateWatch();
      sourceDecided?.();
    },
    setSession(id) {
      hello = { ...hello, session_id: id };
      broadcast(helloMessage());
    },
    resize(cols, rows) {
      if (cols === hello.cols && rows === hello.rows) return;
      hello = { ...hello, cols, rows };
      flush();
      options.mirror.resize(cols, rows);
      broadcast(helloMessage());
    },
    join(socket) {
      if (ended) {
        socket.close(CLOSE_SESSION_ENDED, 'session ended');
        return undefined;
      }
      if (connections.size >= options.maxObservers) {
        socket.close(CLOSE_TOO_MANY, `too many observers (max ${options.maxObservers}); try again later`);
        return undefined;
      }
      flush();
      const connection = new ObserverConnection(socket, position, queueLimit, drop);
      connections.add(connection);
      traffic.joined(connections.size);
      updateWatch();
      connection.sendNow(helloMessage());
      const events = history.slice();
      // Once the source's tail arrived the stream has moved on (`replaceTail`): the snapshot starts there.
      void sourceKnown
        .then(() => watching)
        // One that leaves before its screen is made (observers connecting and dropping) costs no
        // snapshot and no line: the signal takes it out of the mirror's queue.
        .then(() => options.mirror.snapshot(position, options.snapshotBytes, connection.closedSignal))
        .then((snapshot) => {
          if (!connection.isOpen) return;
          if (!snapshot) options.logger.warn('observer: no screen snapshot for a joiner; it gets live output only');
          connection.start(snapshot, events);
        });
      return connection;
    },
    leave(connection) {
      connection.markClosed();
      if (connections.delete(connection)) traffic.left(connections.size);
      updateWatch();
    },
    get observerCount() {
      return connections.size;
    },
    end() {
      if (ended) return;
      flush();
      ended = true;
      clearTimeout(unwatchTimer);
      traffic.flush(connections.size);
      const bye = encodeMessage({ type: 'bye' });
      for (const connection of connections) {
        connection.sendNow(bye);
        connection.close(CLOSE_SESSION_ENDED, 'session ended', END_GRACE_MS);
      }
      connections.clear();
    },
  };
}
