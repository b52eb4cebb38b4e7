/**
 * The WebSocket side of the observer server: checks Host and Origin (HTTP 403) and the token
 * (HTTP 401 without it) on upgrade, holds a joiner past max_observers or past its address's join
 * rate for a second (full-hold.ts, join-rate.ts),
 * hands each accepted socket to the hub, and reads what observers send. A malformed message
 * closes that observer (1008, with the reason) and nothing else; input is passed on only when
 * allowed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { ObserverHub } from './observer-hub.js';
import type { ObserverConnection, ObserverSocket } from './observer-connection.js';
import type { ObserverLogger } from './observer-logger.js';
import { fullHold } from './full-hold.js';
import { joinRate } from './join-rate.js';
import { parseClientMessage } from './protocol.js';
import { refusalLog } from './refusal-log.js';
import { requestUrl, tokenFromRequest, tokenMatches } from './token.js';

/** ws refuses larger frames itself (1009); the protocol's own 64 KiB limit closes with 1008. */
const WS_MAX_PAYLOAD = 1024 * 1024;
const CLOSE_POLICY = 1008;
/** A joiner past max_observers waits this long for a place before its refusal (full-hold.ts). */
const FULL_HOLD_MS = 1000;
/** Joiners waiting that way at once; past it one is dropped unanswered. */
const MAX_HELD = 64;
/** Joins per source address: max_observers' default at once, then 10 a second (join-rate.ts). */
const JOIN_BURST = 32;
const JOINS_PER_SECOND = 10;

export interface ObserverSocketsOptions {
  http: Server;
  token: string;
  hub: ObserverHub;
  /** The request's Host and Origin are this observer's (request-origin.ts); a refusal is already logged. */
  admits: (request: IncomingMessage) => boolean;
  /** Answers a refused upgrade and closes the socket once the answer is written (connection-guard.ts). */
  refuse: (socket: Duplex, response: string) => void;
  allowInput: boolean;
  onInput: (data: Buffer) => void;
  logger: ObserverLogger;
}

export interface ObserverSockets {
  /** Resolves when every socket has closed (the hub has already said bye and closed them). */
  closed(): Promise<void>;
}

export function acceptObserverSockets(options: ObserverSocketsOptions): ObserverSockets {
  const { hub, logger } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false });
  const sockets = new Set<WebSocket>();
  const refusals = refusalLog(logger);
  const waiting = fullHold({ holdMs: FULL_HOLD_MS, maxHeld: MAX_HELD });
  const joins = joinRate({ perSecond: JOINS_PER_SECOND, burst: JOIN_BURST });

  options.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = requestUrl(request).pathname;
    const refuse = (status: number, text: string) => options.refuse(socket, refusal(status, text));
    if (!options.admits(request)) return refuse(403, 'Forbidden');
    if (path !== '/' && path !== '/ws') return refuse(404, 'Not Found');
    if (!tokenMatches(options.token, tokenFromRequest(request))) {
      refusals.refused(request.socket.remoteAddress);
      return refuse(401, 'Unauthorized');
    }
    const upgrade = () => wss.handleUpgrade(request, socket, head, accept);
    if (!hub.isFull() && joins.take(request.socket.remoteAddress)) return upgrade();
    // Past max_observers or its source's rate: after the hold, let in if there is a place, refused
    // with the reason (1013) otherwise.
    if (waiting.hold(socket, upgrade) === 'dropped') logger.debug('observer: joiner dropped unanswered (too many waiting)');
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
    options.onInput(Buffer.from(parsed.message.data, 'utf8'));
  }

  return {
    async closed() {
      waiting.dispose();
      await Promise.all([...sockets].map((ws) => waitClosed(ws)));
      wss.close();
      refusals.flush();
    },
  };
}

/**
 * Every message is JSON text, sent as a text frame through ws's public `send`. The hub hands the
 * same message Buffer to every observer; without compression (perMessageDeflate is off) ws writes
 * a small header and that Buffer, uncopied, and calls back once it is written, which is when the
 * pooled message may be reused.
 */
function observerSocket(ws: WebSocket): ObserverSocket {
  return {
    send: (data, written) => {
      if (ws.readyState !== ws.OPEN) return written?.();
      ws.send(data, { binary: false }, () => written?.());
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
}

function refusal(status: number, text: string): string {
  return `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`;
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function waitClosed(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}
