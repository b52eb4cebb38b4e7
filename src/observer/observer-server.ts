/**
 * The remote observer server (design section 8): HTTP for the page, WebSocket for the stream,
 * both behind the token. The session owns it: it publishes output, frames and events, and calls
 * close() at the end. Nothing here ever makes the session wait; see observer-hub.ts for how.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { CccError } from '../errors.js';
import { createObserverHub } from './observer-hub.js';
import type { ObserverConnection, ObserverSocket } from './observer-connection.js';
import { servePage } from './observer-page.js';
import { parseClientMessage } from './protocol.js';
import type { ObserverEvent, ObserverHello } from './protocol.js';
import { startScreenMirror } from './screen-mirror.js';
import { newToken, requestUrl, tokenFromRequest, tokenMatches } from './token.js';
import { silentLogger } from './observer-logger.js';
import type { ObserverLogger } from './observer-logger.js';

export type { ObserverEvent, ObserverHello } from './protocol.js';

/**
 * A running observer server. Publish methods may be called at any rate from the pty path; they
 * queue and return. `close()` sends `bye` after everything published so far and shuts down.
 */
export interface ObserverServer {
  /** `http://host:port/?token=…`: the page; `ccc observe` accepts it too. Print it on stderr. */
  url: string;
  token: string;
  /** Terminal output, exactly as the user's terminal got it. The chunk is kept until the next
   *  turn of the event loop: do not modify it after the call. */
  publishPty(chunk: Buffer): void;
  /** A stream-json frame (transcript message). */
  publishFrame(frame: object): void;
  publishEvent(event: ObserverEvent): void;
  setSession(id: string): void;
  /** The user's terminal size. Observers follow it; they never resize the user's terminal. */
  resize(cols: number, rows: number): void;
  /** Input typed by observers; only ever fires when `allowInput` is on. Returns the undo. */
  onInput(listener: (data: Buffer) => void): () => void;
  close(): Promise<void>;
}

export interface ObserverOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Random (32 bytes, hex) unless given. */
  token?: string;
  allowInput: boolean;
  /** Size bound of the screen snapshot a joiner gets (screen plus as much scrollback as fits). */
  scrollbackBytes: number;
  maxObservers: number;
  /** Per-observer bound on queued bytes; past it the observer is dropped. */
  maxQueueBytes?: number;
  hello: ObserverHello;
  logger?: ObserverLogger;
}

/** ws refuses larger frames itself (1009); the protocol's own 64 KiB limit closes with 1008. */
const WS_MAX_PAYLOAD = 1024 * 1024;
const CLOSE_POLICY = 1008;
/** The screen worker may fall this far behind before it skips output (snapshot only). */
const MIRROR_BACKLOG_BYTES = 8 * 1024 * 1024;

export async function startObserver(options: ObserverOptions): Promise<ObserverServer> {
  const logger = options.logger ?? silentLogger;
  const token = options.token ?? newToken();
  const snapshotBytes = Math.max(64 * 1024, options.scrollbackBytes);
  // A full snapshot (base64 grows it by a third) must fit in the queue with room for live output.
  const maxQueueBytes = options.maxQueueBytes ?? Math.max(8 * 1024 * 1024, 3 * snapshotBytes);
  const inputListeners = new Set<(data: Buffer) => void>();
  const mirror = startScreenMirror({
    cols: options.hello.cols,
    rows: options.hello.rows,
    scrollbackLines: Math.min(20_000, Math.ceil(snapshotBytes / Math.max(1, options.hello.cols))),
    maxBacklogBytes: MIRROR_BACKLOG_BYTES,
    tailBytes: Math.min(snapshotBytes, 1024 * 1024),
    logger,
  });
  const hub = createObserverHub({
    hello: options.hello,
    allowInput: options.allowInput,
    maxObservers: options.maxObservers,
    maxQueueBytes,
    snapshotBytes,
    mirror,
    logger,
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false });
  const sockets = new Set<WebSocket>();

  const http = createServer((request, response) => {
    servePage(request, response, token).catch((error: unknown) => {
      logger.warn('observer: page request failed', { error: error instanceof Error ? error.message : String(error) });
      response.destroy();
    });
  });
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = requestUrl(request).pathname;
    if (path !== '/' && path !== '/ws') return refuseUpgrade(socket, 404, 'Not Found');
    if (!tokenMatches(token, tokenFromRequest(request))) {
      logger.warn('observer: refused a connection without the right token', { remote: request.socket.remoteAddress });
      return refuseUpgrade(socket, 401, 'Unauthorized');
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  });

  function accept(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('error', (error) => logger.debug('observer: socket error', { error: error.message }));
    const connection = hub.join(observerSocket(ws));
    ws.on('close', () => {
      sockets.delete(ws);
      if (connection) hub.leave(connection);
    });
    if (!connection) return;
    logger.info('observer: joined', { observers: hub.observerCount });
    ws.on('message', (data, isBinary) => onMessage(connection, toBuffer(data), isBinary));
  }

  function onMessage(connection: ObserverConnection, data: Buffer, isBinary: boolean): void {
    // Whatever a dropped observer still had in flight is not acted on.
    if (!connection.isOpen) return;
    const parsed = parseClientMessage(data, isBinary);
    if (!parsed.ok) {
      logger.warn('observer: closing an observer that sent a malformed message', { reason: parsed.reason });
      connection.close(CLOSE_POLICY, parsed.reason);
      hub.leave(connection);
      return;
    }
    if (!options.allowInput) {
      logger.debug('observer: input ignored (observers are read-only; set observer.allow_input to allow it)');
      return;
    }
    const bytes = Buffer.from(parsed.message.data, 'utf8');
    for (const listener of inputListeners) listener(bytes);
  }

  let port: number;
  try {
    port = await listen(http, options.host, options.port);
  } catch (error) {
    await mirror.close();
    throw error;
  }
  const url = `http://${urlHost(options.host)}:${port}/?token=${encodeURIComponent(token)}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    token,
    publishPty: (chunk) => hub.publishPty(chunk),
    publishFrame: (frame) => hub.publishFrame(frame),
    publishEvent: (event) => hub.publishEvent(event),
    setSession: (id) => hub.setSession(id),
    resize: (cols, rows) => hub.resize(cols, rows),
    onInput(listener) {
      inputListeners.add(listener);
      return () => inputListeners.delete(listener);
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };

  async function shutdown(): Promise<void> {
    hub.end();
    inputListeners.clear();
    await Promise.all([...sockets].map((ws) => waitClosed(ws)));
    wss.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await mirror.close();
  }
}

/** Every message is JSON text: sent as text frames (ws would send a Buffer as binary). */
function observerSocket(ws: WebSocket): ObserverSocket {
  return {
    send: (data) => ws.send(data, { binary: false }),
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`);
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function waitClosed(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}

function listen(http: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const hint =
        error.code === 'EADDRINUSE'
          ? `port ${port} is in use; choose another with --observe=<port> or observer.port (0 picks a free one)`
          : `${error.message}; check observer.host and observer.port`;
      reject(new CccError('USAGE', `Cannot start the observer on ${host}:${port}: ${hint}.`, { cause: error }));
    };
    http.once('error', onError);
    http.listen(port, host, () => {
      http.off('error', onError);
      const address = http.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
