/**
 * One watching observer. It joins in two steps: `hello` goes out at once, then everything
 * published meanwhile waits here (raw, bounded) until the screen snapshot arrives; after that,
 * messages go straight to the socket. Either way the bytes it may hold are bounded by its queue
 * limit (what ws still has to send included; the hub shares a budget among observers); past the
 * bound it is dropped, never waited for. It may reconnect and start again from a fresh snapshot.
 */
import { encodePty } from './protocol.js';
import type { ScreenSnapshot } from './screen-mirror.js';
import { framePool } from './frame-pool.js';

/** The part of a ws WebSocket an observer needs; a fake stands in for it in unit tests. */
export interface ObserverSocket {
  /**
   * `written`, if the socket calls it, says the bytes are out (or dropped) and `data` may be
   * reused; a socket that never calls it keeps `data` for good.
   */
  send(data: Buffer, written?: () => void): void;
  /** Bytes accepted by send() and not yet written to the network. */
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
  terminate(): void;
}

export const CLOSE_FELL_BEHIND = 4000;
/** How long a dropped observer gets to read its close frame before its socket is destroyed. */
const DROP_GRACE_MS = 1000;

type Held = { pty: Buffer; at: number } | { message: Buffer };

export class ObserverConnection {
  private held: Held[] | undefined = [];
  private heldBytes = 0;
  private closed = false;
  private readonly closing = new AbortController();

  constructor(
    private readonly socket: ObserverSocket,
    /** Stream position this observer joined at; held output starts here. */
    readonly joinedAt: number,
    /** Bytes this observer may have queued right now (the hub shares a budget among observers). */
    private readonly queueLimit: () => number,
    private readonly onDrop: (connection: ObserverConnection, reason: string) => void,
  ) {}

  get isOpen(): boolean {
    return !this.closed;
  }

  get isLive(): boolean {
    return this.held === undefined;
  }

  /** Aborts when this observer is closed or gone: what was being made for it is not wanted any more. */
  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  /**
   * Live output at stream position `at`: `encoded` is the shared pty message, `copied` the bytes in
   * a buffer of their own that every joiner holds (the hub reuses the batch it was copied from).
   */
  deliverPty(at: number, encoded: () => Buffer, copied: () => Buffer): void {
    if (!this.held) return this.send(encoded());
    const pty = copied();
    this.hold({ pty, at }, pty.length);
  }

  deliver(message: Buffer): void {
    if (this.held) this.hold({ message }, message.length);
    else this.send(message);
  }

  /** Sends immediately, ahead of anything held (hello, bye). */
  sendNow(message: Buffer): void {
    this.send(message);
  }

  /** Completes the join: the screen, then the events so far, then whatever was held. */
  start(snapshot: ScreenSnapshot | undefined, history: Buffer[]): void {
    const held = this.held;
    if (this.closed || !held) return;
    this.held = undefined;
    this.heldBytes = 0;
    const position = snapshot?.position ?? this.joinedAt;
    this.send(snapshot ? snapshotMessage(snapshot) : encodePty(Buffer.alloc(0), true));
    for (const message of history) this.send(message);
    for (const item of held) {
      if ('message' in item) this.send(item.message);
      else if (item.at + item.pty.length > position) this.send(encodePty(item.pty.subarray(Math.max(0, position - item.at))));
    }
  }

  /** Closes with a reason; after `graceMs` a peer that has not finished the handshake is cut off. */
  close(code: number, reason: string, graceMs = DROP_GRACE_MS): void {
    if (this.closed) return;
    this.markClosed();
    this.socket.close(code, closeReason(reason));
    // A stuck peer never answers the close handshake; its buffered bytes go when the socket does.
    setTimeout(() => this.socket.terminate(), graceMs).unref();
  }

  /** The socket closed from the other side. */
  markClosed(): void {
    this.closed = true;
    this.held = undefined;
    this.closing.abort();
  }

  private hold(item: Held, bytes: number): void {
    if (this.closed) return;
    if (this.heldBytes + this.socket.bufferedAmount + bytes > this.queueLimit()) return this.fallBehind();
    this.held!.push(item);
    this.heldBytes += bytes;
  }

  private send(message: Buffer): void {
    if (this.closed) return;
    if (this.socket.bufferedAmount + message.length > this.queueLimit()) return this.fallBehind();
    framePool.retain(message);
    this.socket.send(message, () => framePool.release(message));
  }

  private fallBehind(): void {
    const reason = `observer fell behind (over ${this.queueLimit()} bytes queued); reconnect for a fresh screen`;
    this.close(CLOSE_FELL_BEHIND, reason);
    this.onDrop(this, reason);
  }
}

/**
 * Joiners that share a snapshot share its message too: one encoding, one buffer that every socket
 * sends uncopied, however many joiners took it.
 */
const snapshotMessages = new WeakMap<ScreenSnapshot, Buffer>();
function snapshotMessage(snapshot: ScreenSnapshot): Buffer {
  let message = snapshotMessages.get(snapshot);
  if (!message) snapshotMessages.set(snapshot, (message = encodePty(Buffer.from(snapshot.data, 'utf8'), true)));
  return message;
}

/** WebSocket close reasons are limited to 123 bytes of UTF-8. */
export function closeReason(reason: string): string {
  let text = reason;
  while (Buffer.byteLength(text, 'utf8') > 123) text = text.slice(0, -1);
  return text;
}
