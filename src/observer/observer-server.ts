/**
 * The remote observer server (docs/design/observer.md): HTTP for the page, WebSocket for the stream,
 * both behind the token. The session owns it: it publishes output, frames and events, and calls
 * close() at the end. Nothing here ever makes the session wait; see observer-hub.ts for how.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { shownVerdict } from '../checkers/verdict-text.js';
import { CccError, errorText } from '../errors.js';
import { createObserverHub, type OutputSource } from './observer-hub.js';
import { acceptObserverSockets } from './observer-sockets.js';
import { connectionCap, guardConnections, LISTEN_BACKLOG } from './connection-guard.js';
import { servePage } from './observer-page.js';
import type { ObserverEvent, ObserverHello } from './protocol.js';
import { startScreenMirror } from './screen-mirror.js';
import { newToken } from './token.js';
import { refusalLog } from './refusal-log.js';
import { requestOriginCheck, type OriginCheck } from './request-origin.js';
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
  /** Output observers missed (see `ObserverHub.outputGap`). */
  outputGap(lost: number): void;
  /** See `OutputSource`: the relay copies output only while someone watches. Undefined: there is none. */
  setOutputSource(source: OutputSource | undefined): void;
  replaceTail(tail: Buffer): void;
  /** How much recent output a snapshot replays: what an output source should keep. */
  readonly tailBytes: number;
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
  /** `observer.allowed_hosts`: names besides the listening address a request's Host may give. */
  allowedHosts?: readonly string[];
  /** Per-observer bound on queued bytes; past it the observer is dropped. */
  maxQueueBytes?: number;
  hello: ObserverHello;
  logger?: ObserverLogger;
  /** Joiners wait for `setOutputSource` (the interactive session starts its relay after the server). */
  awaitOutputSource?: boolean;
}

/** What all observers of a session may hold queued together (see `ObserverHubOptions.totalQueueBytes`). */
const TOTAL_QUEUE_BYTES = 32 * 1024 * 1024;

export async function startObserver(options: ObserverOptions): Promise<ObserverServer> {
  const logger = options.logger ?? silentLogger;
  const token = options.token ?? newToken();
  const snapshotBytes = Math.max(64 * 1024, options.scrollbackBytes);
  // A full snapshot (base64 grows it by a third) must fit in the queue with room for live output.
  const maxQueueBytes = options.maxQueueBytes ?? Math.max(8 * 1024 * 1024, 3 * snapshotBytes);
  const inputListeners = new Set<(data: Buffer) => void>();
  const tailBytes = Math.min(snapshotBytes, 1024 * 1024);
  const mirror = startScreenMirror({
    cols: options.hello.cols,
    rows: options.hello.rows,
    scrollbackLines: Math.min(20_000, Math.ceil(snapshotBytes / Math.max(1, options.hello.cols))),
    tailBytes,
    logger,
  });
  const hub = createObserverHub({
    hello: options.hello,
    allowInput: options.allowInput,
    maxObservers: options.maxObservers,
    maxQueueBytes,
    totalQueueBytes: TOTAL_QUEUE_BYTES,
    // A snapshot (base64: 4/3 of the screen text) must fit, with room for live output.
    minQueueBytes: 2 * snapshotBytes,
    snapshotBytes,
    mirror,
    logger,
    ...(options.awaitOutputSource ? { awaitOutputSource: true } : {}),
  });
  // Known once the server listens (its port); no request arrives before.
  let originCheck: (request: IncomingMessage) => OriginCheck = () => ({ ok: false, refused: 'host', value: '' });
  const refusals = {
    host: refusalLog(logger, { reason: 'naming another host (observer.host, observer.allowed_hosts)' }),
    origin: refusalLog(logger, { reason: "from another origin than the observer's page" }),
  };
  /** A request for this observer, from its own page or no page at all; anything else is logged, rate-limited. */
  const admits = (request: IncomingMessage): boolean => {
    const check = originCheck(request);
    if (!check.ok) refusals[check.refused].refused(request.socket.remoteAddress, check.value);
    return check.ok;
  };
  // Checked every second (Node's default is 30 s): a request's headers are given HEADERS_MS.
  const http = process.getBuiltinModule('node:http').createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
    if (!admits(request)) return refuseRequest(response);
    servePage(request, response, token).catch((error: unknown) => {
      logger.warn('observer: page request failed', { error: errorText(error) });
      response.destroy();
    });
  });
  const connections = guardConnections(http, { cap: connectionCap(options.maxObservers), logger });
  const sockets = acceptObserverSockets({
    http,
    token,
    hub,
    admits,
    refuse: (socket, response) => connections.refuse(socket, response),
    allowInput: options.allowInput,
    onInput: (data) => {
      for (const listener of inputListeners) listener(data);
    },
    logger,
  });

  let port: number;
  try {
    port = await listen(http, options.host, options.port);
  } catch (error) {
    await mirror.close();
    throw error;
  }
  originCheck = requestOriginCheck({ host: options.host, port, allowedHosts: options.allowedHosts });
  const url = `http://${urlHost(options.host)}:${port}/?token=${encodeURIComponent(token)}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    token,
    publishPty: (chunk) => hub.publishPty(chunk),
    publishFrame: (frame) => hub.publishFrame(frame),
    // A verdict goes with its words: the page shows what every other report says, and cannot derive it itself.
    publishEvent: (event) =>
      hub.publishEvent(event.kind === 'verdict' ? { ...event, verification_details: shownVerdict(event.completed, event.evidence).details } : event),
    outputGap: (lost) => hub.outputGap(lost),
    setOutputSource: (source) => hub.setOutputSource(source),
    replaceTail: (tail) => hub.replaceTail(tail),
    tailBytes,
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
    await sockets.closed();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await mirror.close();
    refusals.host.flush();
    refusals.origin.flush();
    connections.flush();
  }
}

function refuseRequest(response: ServerResponse): void {
  response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  response.end('Forbidden: open the URL ccc printed (its host and port); another host name or page cannot reach this observer.\n');
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
    http.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      http.off('error', onError);
      const address = http.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
