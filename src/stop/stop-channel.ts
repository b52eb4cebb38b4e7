/**
 * The private channel between the Stop hook process (`ccc supervisor-hook --proxy`, started by
 * claude) and the running `ccc` that launched claude: a Unix socket in a 0700 directory, mode
 * 0600, and a per-launch token compared in constant time. One request line, one answer line.
 *
 * Request: {"token": "...", "input": "<Stop hook JSON text>"}
 * Answer:  {"output": "<what the hook prints on stdout>"}
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { errorText } from '../errors.js';

export const SOCKET_ENV = 'CCC_HOOK_SOCKET';
/** The abort reason of a stop whose hook process went away before the answer. */
export const HOOK_GONE = 'the Stop hook was cancelled';
export const TOKEN_ENV = 'CCC_HOOK_TOKEN';
const MAX_LINE = 64 * 1024 * 1024;

export interface StopChannelServer {
  socketPath: string;
  token: string;
  close(): Promise<void>;
}

/**
 * Answers one stop: the text the hook process prints (empty = allow the stop). `gone` aborts when
 * the hook process hangs up before the answer (claude cancelled its hook, e.g. the user pressed
 * Esc): nobody is waiting for the review any more.
 */
export type StopRequestHandler = (hookInput: string, gone: AbortSignal) => Promise<string>;

export async function startStopChannel(options: { dir: string; onStop: StopRequestHandler; onError?: (e: Error) => void }): Promise<StopChannelServer> {
  const dir = socketDir(options.dir);
  const socketPath = path.join(dir, `stop-${process.pid}-${crypto.randomBytes(4).toString('hex')}.sock`);
  const token = crypto.randomBytes(32).toString('hex');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    readLine(socket, (line) => {
      void answer(line, socket);
    });
  });

  async function answer(line: string | Error, socket: net.Socket) {
    if (line instanceof Error) return void socket.end(JSON.stringify({ error: line.message }) + '\n');
    let request: { token?: unknown; input?: unknown };
    try {
      request = JSON.parse(line) as { token?: unknown; input?: unknown };
    } catch {
      return void socket.end(JSON.stringify({ error: 'malformed request' }) + '\n');
    }
    if (typeof request.token !== 'string' || !tokensEqual(request.token, token)) {
      return void socket.end(JSON.stringify({ error: 'bad token' }) + '\n');
    }
    const gone = new AbortController();
    const hungUp = () => gone.abort(HOOK_GONE);
    socket.once('close', hungUp);
    try {
      const output = await options.onStop(typeof request.input === 'string' ? request.input : '', gone.signal);
      socket.end(JSON.stringify({ output }) + '\n');
    } catch (error) {
      options.onError?.(error as Error);
      socket.end(JSON.stringify({ output: '', error: errorText(error) }) + '\n');
    } finally {
      socket.off('close', hungUp);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    socketPath,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          try {
            fs.rmSync(socketPath, { force: true });
          } catch {
            // A directory gone read-only keeps the dead socket; nothing connects to it any more.
          }
          resolve();
        });
      }),
  };
}

/** Sends the hook input to the running ccc and returns what to print. */
export function askStopChannel(socketPath: string, token: string, hookInput: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.on('connect', () => socket.write(JSON.stringify({ token, input: hookInput }) + '\n'));
    socket.on('error', reject);
    readLine(socket, (line) => {
      socket.destroy();
      if (line instanceof Error) return reject(line);
      try {
        const answer = JSON.parse(line) as { output?: unknown; error?: unknown };
        if (typeof answer.error === 'string' && typeof answer.output !== 'string') return reject(new Error(answer.error));
        resolve(typeof answer.output === 'string' ? answer.output : '');
      } catch {
        reject(new Error('malformed answer from ccc'));
      }
    });
  });
}

function readLine(socket: net.Socket, done: (line: string | Error) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (value: string | Error) => {
    if (finished) return;
    finished = true;
    socket.off('data', onData);
    done(value);
  };
  const onData = (chunk: Buffer) => {
    const nl = chunk.indexOf(0x0a);
    if (nl === -1) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_LINE) finish(new Error('request too large'));
      return;
    }
    chunks.push(chunk.subarray(0, nl));
    finish(Buffer.concat(chunks).toString('utf8'));
  };
  socket.on('data', onData);
  socket.on('end', () => finish(new Error('connection closed before a full line')));
}

function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * A private directory for the socket. Unix socket paths are limited to ~107 bytes, so a deep
 * config dir falls back to the system temp dir (still 0700 and owned by the user).
 */
function socketDir(preferred: string): string {
  const candidates = [path.join(preferred, 'run'), path.join(os.tmpdir(), `ccc-${process.getuid?.() ?? 'user'}`)];
  for (const dir of candidates) {
    if (dir.length + 40 > 100) continue;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    return dir;
  }
  const dir = fs.mkdtempSync(path.join('/tmp', 'ccc-'));
  return dir;
}
