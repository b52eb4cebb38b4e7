/**
 * `ccc observe <url>`: mirrors a running session's terminal here and prints the supervisor's
 * events beneath it. Ends with 0 when the session says `bye` or the user quits with Ctrl-C; an
 * observer dropped for falling behind reconnects and starts again from a fresh screen. A
 * connection the port closes before answering is tried again for a while: under a flood of
 * clients that send nothing, the port closes the oldest connections still without a request, and
 * a watcher on a loaded machine may not have sent its own yet (the browser page retries too).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { CccError } from '../errors.js';
import type { ObserveTerminal, QuitReason } from './observe-terminal.js';
import type { ObserverEvent, ObserverHello } from './protocol.js';
import { CLOSE_FELL_BEHIND } from './observer-connection.js';

export interface ObserveClientOptions {
  /** The URL printed as `Observer: http://host:port/?token=…` (ws:// works too). */
  url: string;
  /** Overrides the token in the URL. */
  token?: string;
  terminal: ObserveTerminal;
}

type Outcome =
  | { kind: 'bye' }
  | { kind: 'quit'; reason: QuitReason }
  | { kind: 'dropped' }
  | { kind: 'closed'; code: number; reason: string }
  | { kind: 'unreachable'; message: string }
  /** Closed before any answer, while the port still takes connections: worth another try. */
  | { kind: 'unanswered'; message: string };

const QUIT_EXIT: Record<QuitReason, number> = { keyboard: 0, SIGINT: 130, SIGHUP: 129, SIGTERM: 143 };
const RECONNECT_DELAY_MS = 500;
/** The waits before each new try after a connection closed unanswered: 13.5 s in all, then it gives up. */
const UNANSWERED_DELAYS_MS = [250, 250, 500, 500, 1000, 1000, 2000, 2000, 2000, 2000, 2000];

/** Returns the exit code; throws CccError for a bad URL or a refused token (exit 2). */
export async function runObserveClient(options: ObserveClientOptions): Promise<number> {
  const target = observerWebSocketUrl(options.url, options.token);
  // A quit between two connections (while waiting to reconnect) must not be lost.
  let quit: QuitReason | undefined;
  const offQuit = options.terminal.onQuit((reason) => (quit ??= reason));
  try {
    return await watchUntilDone(target, options.terminal, () => quit);
  } finally {
    offQuit();
  }
}

async function watchUntilDone(target: URL, terminal: ObserveTerminal, quitRequested: () => QuitReason | undefined): Promise<number> {
  let unanswered = 0;
  for (;;) {
    const quit = quitRequested();
    if (quit) return QUIT_EXIT[quit];
    const outcome = await watchOnce(target, terminal);
    if (outcome.kind !== 'unanswered') unanswered = 0;
    switch (outcome.kind) {
      case 'bye':
        terminal.status('the session is over; stopped watching');
        return 0;
      case 'quit':
        return QUIT_EXIT[outcome.reason];
      case 'dropped':
        terminal.status('this terminal fell behind the session; reconnecting for a fresh screen');
        await sleep(RECONNECT_DELAY_MS);
        continue;
      case 'closed':
        terminal.status(`the observer closed the connection (${outcome.code}${outcome.reason ? `: ${outcome.reason}` : ''})`);
        return 1;
      case 'unreachable':
        terminal.status(outcome.message);
        return 1;
      case 'unanswered': {
        const delay = UNANSWERED_DELAYS_MS[unanswered++];
        if (delay === undefined) {
          terminal.status(outcome.message);
          return 1;
        }
        if (unanswered === 1) terminal.status(`the observer at ${target.host} closed the connection unanswered (a busy port?); trying again`);
        await sleep(delay);
        continue;
      }
    }
  }
}

/** http(s) URLs as printed by ccc become ws(s); the token must be there one way or the other. */
function observerWebSocketUrl(input: string, token?: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CccError('USAGE', `"${input}" is not a URL. Pass the URL ccc printed as "Observer: http://host:port/?token=…".`);
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new CccError('USAGE', `"${input}" is not an observer URL (http:// or ws://). Pass the URL ccc printed as "Observer: …".`);
  }
  if (token !== undefined) url.searchParams.set('token', token);
  if (!url.searchParams.get('token')) {
    throw new CccError('USAGE', 'The observer URL has no token. Pass the whole URL ccc printed as "Observer: http://…/?token=…", or add --token <token>.');
  }
  url.hash = '';
  return url;
}

function watchOnce(target: URL, terminal: ObserveTerminal): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target, { handshakeTimeout: 15_000 });
    let hello: ObserverHello | undefined;
    let opened = false;
    let sawBye = false;
    let settled = false;
    const finish = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      offQuit();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const offQuit = terminal.onQuit((reason) => {
      ws.terminate();
      finish({ kind: 'quit', reason });
    });

    ws.on('unexpected-response', (_request, response) => {
      ws.terminate();
      const where = `${target.host}`;
      if (response.statusCode === 401) {
        finish(
          new CccError(
            'USAGE',
            `The observer at ${where} refused the token (HTTP 401). Use the whole URL ccc printed as "Observer: http://…/?token=…", or pass the right --token.`,
          ),
        );
      } else finish({ kind: 'unreachable', message: `the server at ${where} is not a ccc observer (HTTP ${response.statusCode})` });
    });
    ws.on('open', () => (opened = true));
    ws.on('error', (error: NodeJS.ErrnoException) => {
      const message = `cannot reach the observer at ${target.host} (${error.code ?? error.message}); is the session still running?`;
      // Nothing listening is ECONNREFUSED; a port that accepted and then closed before its answer is ECONNRESET.
      finish({ kind: !opened && error.code === 'ECONNRESET' ? 'unanswered' : 'unreachable', message });
    });
    ws.on('message', (data) => {
      // ws's default binaryType ('nodebuffer') delivers a message as one Buffer.
      const message = parse((data as Buffer).toString());
      if (!message) return;
      if (message.type === 'hello') {
        const session = message.session as ObserverHello;
        terminal.sessionSize(session.cols, session.rows);
        if (!hello)
          terminal.status(
            `watching session ${session.session_id ?? '(starting)'} in ${session.cwd}: ${session.command.join(' ')} (${session.cols}x${session.rows}); Ctrl-C stops watching`,
          );
        else if (hello.cols !== session.cols || hello.rows !== session.rows) terminal.status(`the session's terminal is now ${session.cols}x${session.rows}`);
        hello = session;
      } else if (message.type === 'pty' && typeof message.data === 'string') {
        if (message.snapshot === true) terminal.clearScreen();
        terminal.writeScreen(Buffer.from(message.data, 'base64'));
      } else if (message.type === 'event') {
        terminal.event(message.event as ObserverEvent);
      } else if (message.type === 'bye') {
        sawBye = true;
        ws.close(1000, 'bye');
        finish({ kind: 'bye' });
      }
    });
    ws.on('close', (code, reason) => {
      if (sawBye) return finish({ kind: 'bye' });
      if (code === CLOSE_FELL_BEHIND) return finish({ kind: 'dropped' });
      finish({ kind: 'closed', code, reason: reason.toString() });
    });
  });
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
