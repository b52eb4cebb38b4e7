/**
 * The observer port against hostile clients, on a real supervised run: the built ccc under a low
 * open-file limit (prlimit), the real claude, the scripted model server, and 1500 real sockets
 * that each send a request line and then one header every few seconds, never a token (a slowloris).
 * Such clients once took every descriptor ccc had: the log lost lines, the reviewer's spawn failed
 * with EMFILE as an unhandled 'error' event, exit 1. With clients that send nothing and clients
 * that are refused and keep their side open, all connecting again the moment they are closed, the
 * run must end as it would without them, and an observer with the token must still get in: the
 * real `ccc observe`, in its own process as a user's would be. Its first connections may be closed
 * unanswered, as the flood's are, when it has not sent its request in time on this loaded machine;
 * it tries again (observe-client.ts).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { describe, expect, onTestFinished } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { readLog } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';

const HOSTILE = 1500;
const OPEN_FILES = 512;

type Kind = 'silent' | 'trickle' | 'refused';

/**
 * `count` hostile clients, as many of each kind: one that connects and sends nothing, one that sends
 * a request line and then a header every `everyMs` (a slowloris), one that sends a whole upgrade
 * request without a token and never closes its side. Each connects again as soon as it is closed,
 * until `stop`. Resolves once the first wave has connected or been refused.
 */
async function flood(port: number, count: number, everyMs: number) {
  const kinds: Kind[] = ['silent', 'trickle', 'refused'];
  const live = new Set<net.Socket>();
  const closedByServer: Record<Kind, number> = { silent: 0, trickle: 0, refused: 0 };
  let stopped = false;
  const open = (kind: Kind): Promise<void> =>
    new Promise((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      live.add(socket);
      let n = 0;
      const timer = kind === 'trickle' ? setInterval(() => socket.write(`X-Slow-${n++}: aaaaaaaaaa\r\n`), everyMs) : undefined;
      socket.on('connect', () => {
        if (kind === 'trickle') socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
        if (kind === 'refused')
          socket.write(
            `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\n\r\n`,
          );
        resolve();
      });
      socket.on('error', () => resolve());
      socket.on('data', () => {});
      const gone = () => {
        if (!live.delete(socket)) return;
        clearInterval(timer);
        socket.destroy();
        if (stopped) return;
        closedByServer[kind] += 1;
        setTimeout(() => void open(kind), 50);
        resolve();
      };
      socket.on('end', gone);
      socket.on('close', gone);
    });
  await Promise.all(Array.from({ length: count }, (_, i) => open(kinds[i % kinds.length]!)));
  return {
    closedByServer,
    stop() {
      stopped = true;
      for (const socket of live) socket.destroy();
      live.clear();
    },
  };
}

describe('the observer port under hostile clients', () => {
  it(`${HOSTILE} hostile clients without a token under ulimit -n ${OPEN_FILES}: the run reviews and ends normally, its log whole; a real observer still gets in`, async ({
    rig,
  }) => {
    let release!: () => void;
    const flooded = new Promise<void>((resolve) => (release = resolve));
    const { server, world } = await rig.start((r) =>
      r.kind === 'review' ? { verdict: { completed: true, feedback: 'The work is done.' } } : { text: 'All done.', until: flooded },
    );
    const child = spawn('prlimit', [`--nofile=${OPEN_FILES}:${OPEN_FILES}`, process.execPath, cccBin, '--supervisor', '--observe', '-p', 'do the task'], {
      cwd: world.cwd,
      env: world.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        const found = /Observer: (\S+)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      child.on('exit', () => reject(new Error(`ccc ended before its observer URL: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = Number(new URL(url).port);

    const attack = await flood(port, HOSTILE, 2000);
    onTestFinished(() => attack.stop());
    // A real observer, with the token, while the flood goes on.
    const watcher = spawn(process.execPath, [cccBin, 'observe', url], { stdio: ['ignore', 'ignore', 'pipe'] });
    let watched = '';
    const watcherExited = new Promise<number | null>((resolve) => watcher.on('close', (watcherCode) => resolve(watcherCode)));
    onTestFinished(() => void watcher.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      watcher.stderr.setEncoding('utf8').on('data', (d: string) => {
        watched += d;
        if (watched.includes('watching session')) resolve();
      });
      watcher.on('exit', () => reject(new Error(`ccc observe ended before it got in: ${watched}`)));
    });
    release();
    const code = await exited;
    expect(stderr).not.toMatch(/EMFILE|ENFILE|Unhandled|unexpected error/);
    expect(code, stderr).toBe(0);
    // The scripted review runs no command: complete, but unverified.
    expect(stderr).toMatch(/⚠ complete \(claude, unverified/);
    expect(server.byKind('review').length).toBeGreaterThan(0);
    const log = readLog(world);
    expect(log).toMatch(/verdict/);
    expect(log).not.toMatch(/EMFILE|were lost/);
    expect(log.trimEnd().split('\n').pop()).toMatch(/run ended/);
    // The observer saw the review's verdict, and the session's end.
    expect(await watcherExited, watched).toBe(0);
    expect(watched).toMatch(/verdict of claude \(iteration 1\)/);
    expect(watched).toContain('the session is over; stopped watching');
    // Every kind was closed by ccc (evicted past the cap, or at the deadline), none kept its place.
    expect(
      Object.values(attack.closedByServer).every((n) => n > 0),
      JSON.stringify(attack.closedByServer),
    ).toBe(true);
  });
});
