/**
 * Bounds on the observer port's connections, so that clients who never show a token cannot take
 * what the supervised run needs. Every connection holds one of ccc's file descriptors; a run needs
 * its own (its log, the reviewer's pipes, the modules it loads), and 1500 sockets that each trickle
 * one header every few seconds once took them all (the log lost lines, the reviewer could not be
 * started). So:
 * - a cap on connections at once (`maxConnections`): what max_observers needs plus the joiners
 *   held and the requests in progress, and never more than the open-file limit leaves once
 *   RUN_RESERVED_DESCRIPTORS are set aside for the run. Past it, the oldest connections that have
 *   not yet sent their request are closed: a flood of clients that connect and trickle evict each
 *   other, while a real observer, whose request comes at once, gets in. Not at once, though: a
 *   connection is only closed once the loop has had a turn to read what it sent. Node accepts a
 *   whole backlog in one go, before any of it is read, so closing at accept closed most of each
 *   burst unread, a real observer with its request already waiting among them, under a flood of
 *   reconnecting clients. The sweep comes one loop turn later; meanwhile a burst is at most
 *   the listen backlog (LISTEN_BACKLOG), which Node's own cap allows on top of ours. With every
 *   place taken by connections that sent their request, a newcomer is closed at once;
 * - a deadline for a request's headers: a connection that has not sent a whole request within
 *   HEADERS_MS of connecting (or, on a kept-alive connection, of its next request's start: Node's
 *   `headersTimeout`) is closed, whether it trickles or sends nothing at all;
 * - a refused upgrade (no token, a foreign Host) is closed once its answer is written, not left
 *   half-open for the client to keep;
 * - an accept that fails (the descriptors ran out anyway) is logged, rate-limited, not an
 *   unhandled 'error' that would end ccc.
 */
import { readdirSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { openFileLimit } from '../process/open-file-limit.js';
import type { ObserverLogger } from './observer-logger.js';
import { refusalLog } from './refusal-log.js';

/** A whole request's headers, from the connection's start: a browser or `ccc observe` sends them at once. */
const HEADERS_MS = 10_000;
/** How long a refused upgrade's answer may take to be written before the socket is destroyed anyway. */
const REFUSAL_LINGER_MS = 1000;
/** Descriptors the run keeps for itself whatever the observers do: twice what a session needs to start. */
export const RUN_RESERVED_DESCRIPTORS = 128;
/** Beyond max_observers: joiners held for a place (observer-sockets.ts) and page loads and handshakes in progress. */
const BEYOND_OBSERVERS = 64 + 32;
/**
 * The port's listen backlog: the most connections one accept burst brings before the guard can
 * sweep (Node's default, 511, let a burst outgrow the cap several times over).
 */
export const LISTEN_BACKLOG = 64;

export interface ConnectionCap {
  maxConnections: number;
  /** Set when the open-file limit, not max_observers, decided the cap. */
  limitedBy?: { openFileLimit: number; open: number };
}

/**
 * The most connections the port takes at once: max_observers and the joiners around them, within
 * what the open-file limit leaves after the descriptors already open and the run's reserve.
 */
export function connectionCap(maxObservers: number, limit: number | undefined = openFileLimit(), open: number = openDescriptors()): ConnectionCap {
  const wanted = maxObservers + BEYOND_OBSERVERS;
  if (limit === undefined) return { maxConnections: wanted };
  const room = Math.max(1, limit - open - RUN_RESERVED_DESCRIPTORS);
  return room >= wanted ? { maxConnections: wanted } : { maxConnections: room, limitedBy: { openFileLimit: limit, open } };
}

/** Descriptors this process holds now (Linux); where it cannot be told, a session's start-up share. */
function openDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return 64;
  }
}

export interface ConnectionGuard {
  /** A refused upgrade: answers with `response` and closes the socket once it is written. */
  refuse(socket: Duplex, response: string): void;
  /** Logs the drops and accept failures not yet told (at close). */
  flush(): void;
}

export function guardConnections(http: Server, options: { cap: ConnectionCap; logger: ObserverLogger; headersMs?: number }): ConnectionGuard {
  const { logger } = options;
  const headersMs = options.headersMs ?? HEADERS_MS;
  http.headersTimeout = headersMs;
  http.requestTimeout = 2 * headersMs;
  if (options.cap.limitedBy) {
    logger.warn('observer: fewer connections than max_observers needs, to keep descriptors for the run; raise the open-file limit (ulimit -n) for more', {
      max_connections: options.cap.maxConnections,
      open_file_limit: options.cap.limitedBy.openFileLimit,
      open: options.cap.limitedBy.open,
    });
  }
  const dropped = refusalLog(logger, { reason: `past the observer's ${options.cap.maxConnections} connections at once` });
  const failed = refusalLog(logger, { reason: 'that could not be accepted (out of file descriptors?)' });
  http.on('drop', (data?: { remoteAddress?: string }) => dropped.refused(data?.remoteAddress));
  // Once listening, an accept that fails is reported as 'error'; unheard, it would end ccc.
  http.once('listening', () => http.on('error', (error: NodeJS.ErrnoException) => failed.refused(undefined, error.code ?? error.message)));

  const { maxConnections } = options.cap;
  // Node's own cap only backs ours up: a burst is accepted before our sweep closes what it must.
  http.maxConnections = maxConnections + LISTEN_BACKLOG;
  /** Connections not closed by us nor by their client; their descriptors are ours. */
  const live = new Set<Socket>();
  /** Those still waiting for their request, oldest first: the deadline for it and the loop turn it came in. */
  const pending = new Map<Socket, { timer: NodeJS.Timeout; turn: number }>();
  /** Counts the sweeps' loop turns: a connection that came in before the current one has been read once. */
  let turn = 0;
  let sweepDue = false;
  const arrived = (socket: Socket) => {
    clearTimeout(pending.get(socket)?.timer);
    pending.delete(socket);
  };
  const close = (socket: Socket) => {
    arrived(socket);
    live.delete(socket);
    socket.destroy();
  };
  /** Closes the oldest connections without a request, among those the loop has read since they came, down to the cap. */
  const sweep = (readBefore: number) => {
    sweepDue = false;
    for (const [socket, { turn: came }] of pending) {
      if (live.size <= maxConnections || came >= readBefore) break;
      dropped.refused(socket.remoteAddress);
      close(socket);
    }
    if (live.size > maxConnections && pending.size > 0) scheduleSweep();
  };
  // Accepts come in the loop's poll phase and their first read in the next one: an immediate set
  // from an immediate runs after that next poll phase.
  const scheduleSweep = () => {
    if (sweepDue) return;
    sweepDue = true;
    setImmediate(() => {
      const readBefore = ++turn;
      setImmediate(() => sweep(readBefore));
    });
  };
  http.on('connection', (socket: Socket) => {
    live.add(socket);
    socket.once('close', () => {
      arrived(socket);
      live.delete(socket);
    });
    if (live.size > maxConnections) {
      // Every place is held by a connection that sent its request: nothing to make room with.
      if (pending.size === 0) {
        dropped.refused(socket.remoteAddress);
        return close(socket);
      }
      scheduleSweep();
    }
    const timer = setTimeout(() => close(socket), headersMs);
    timer.unref();
    pending.set(socket, { timer, turn });
  });
  http.on('request', (request: IncomingMessage) => arrived(request.socket));
  http.on('upgrade', (request: IncomingMessage) => arrived(request.socket));

  return {
    refuse(socket, response) {
      const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
      linger.unref();
      socket.end(response, () => {
        clearTimeout(linger);
        socket.destroy();
      });
    },
    flush() {
      dropped.flush();
      failed.flush();
    },
  };
}
