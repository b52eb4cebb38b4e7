/**
 * `ccc observe` as a user runs it (the built CLI against a real observer server): it mirrors the
 * session's output, prints the events on stderr, and ends cleanly.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import pty from '@lydell/node-pty';
import type { ObserverServer } from '../../src/observer/observer-server.js';
import { startTestObserver } from './support/start-test-observer.js';
import { runProcess } from '../support/run-process.js';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const at = '2026-11-22T01:02:03.000Z';
let server: ObserverServer | undefined;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/main.js is missing: run `npx tsc -p tsconfig.json` first');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Watcher {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForStderr(text: string): Promise<void>;
}

function watch(args: string[]): Watcher {
  const child = spawn(process.execPath, [cli, 'observe', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    wakeAll();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      resolve({ code, signal });
      wakeAll();
    }),
  );
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitForStderr(text) {
      while (!stderr.includes(text)) {
        if (child.exitCode !== null) throw new Error(`ccc observe exited before printing ${text}: ${stderr}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe('ccc observe', () => {
  it('mirrors the screen on stdout, prints the events on stderr and exits 0 on bye', async () => {
    server = await startTestObserver();
    server.publishPty(Buffer.from('\x1b[1mbefore the observer joined\x1b[0m\r\n'));
    server.publishEvent({ kind: 'iteration', n: 1, max: 3, at });
    const watcher = watch([server.url]);
    await watcher.waitForStderr('iteration 1/3');
    const live = '\x1b[32mlive output\x1b[0m\r\nsecond line ✓\r\n';
    server.publishPty(Buffer.from(live));
    server.publishEvent({ kind: 'checker', checker: 'claude', state: 'start', at });
    server.publishEvent({ kind: 'checker', checker: 'claude', state: 'done', duration_ms: 12_345, at });
    server.publishEvent({ kind: 'verdict', checker: 'claude', completed: false, feedback: 'Run the tests.\nThey fail.', iteration: 1, at });
    server.publishEvent({ kind: 'stopped', reason: 'limit', message: 'Reached max_iterations (1).', at });
    server.publishEvent({ kind: 'end', exit_code: 0, at });
    await watcher.waitForStderr('session ended');
    await server.close();
    server = undefined;
    const { code } = await watcher.exited;

    expect(code).toBe(0);
    expect(watcher.stdout()).toContain('before the observer joined');
    expect(watcher.stdout().endsWith(live)).toBe(true);
    const lines = watcher.stderr().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\[ccc\] watching session test-session in \/work\/project: claude \(80x24\)/);
    expect(lines.slice(1)).toEqual([
      '[ccc] iteration 1/3',
      '[ccc] review by claude started',
      '[ccc] claude finished after 12.3 s',
      '[ccc] verdict of claude (iteration 1): ✗ not completed: Run the tests.',
      '      They fail.',
      '[ccc] supervisor stopped (limit): Reached max_iterations (1).',
      '[ccc] session ended (exit code 0)',
      '[ccc] the session is over; stopped watching',
    ]);
  });

  it("shows a verdict's escape sequences (OSC 52, OSC 0, SGR 8) as inert text: no raw ESC reaches the terminal", async () => {
    server = await startTestObserver();
    const watcher = watch([server.url]);
    await watcher.waitForStderr('watching session');
    const feedback = 'Fix it.\x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07\n\x1b[8mhidden\x1b[0m done';
    server.publishEvent({ kind: 'verdict', checker: 'claude', completed: false, feedback, iteration: 1, at });
    await watcher.waitForStderr('done');
    expect(watcher.stderr()).toContain('not completed: Fix it. ]52;c;cm0gLXJmIH4=   ]0;pwned \n       [8mhidden [0m done');
    expect(watcher.stderr()).not.toMatch(/[\x1b\x07\x9b\x9d]/);
  });

  it('takes the token from --token', async () => {
    server = await startTestObserver({ token: 'from-flag' });
    const watcher = watch([server.url.replace(/\?.*$/, ''), '--token', 'from-flag']);
    await watcher.waitForStderr('watching session');
    await server.close();
    server = undefined;
    expect((await watcher.exited).code).toBe(0);
  });

  it('says the token was refused and exits 2', async () => {
    server = await startTestObserver({ token: 'right' });
    const result = await runProcess(process.execPath, [cli, 'observe', server.url.replace('right', 'wrong')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ccc: The observer at 127\.0\.0\.1:\d+ refused the token \(HTTP 401\)/);
  });

  it('exits 2 when the URL carries no token, and 1 when nothing listens', async () => {
    const noToken = await runProcess(process.execPath, [cli, 'observe', 'http://127.0.0.1:9/']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('The observer URL has no token');
    const nothing = await runProcess(process.execPath, [cli, 'observe', 'http://127.0.0.1:9/?token=abc']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('cannot reach the observer at 127.0.0.1:9');
  });

  it('gets in through a port that closes its first connections unanswered, as the guard does under a flood', async () => {
    // The observer behind a port that closes the first connections at once, before any answer, as
    // the observer's guard closes the oldest connections still without a request under a flood of
    // them; a watcher on a loaded machine may not have sent its request yet.
    server = await startTestObserver({ allowedHosts: ['127.0.0.1'] });
    const observerPort = Number(new URL(server.url).port);
    let closedUnanswered = 0;
    const front = net.createServer((socket) => {
      if (closedUnanswered < 3) {
        closedUnanswered++;
        socket.destroy();
        return;
      }
      const back = net.connect(observerPort, '127.0.0.1');
      socket.pipe(back).pipe(socket);
      socket.on('error', () => back.destroy());
      back.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void front.close());
    const url = new URL(server.url);
    url.port = String((front.address() as net.AddressInfo).port);

    const watcher = watch([url.href]);
    await watcher.waitForStderr('watching session');
    server.publishEvent({ kind: 'end', exit_code: 0, at });
    await server.close();
    server = undefined;
    expect((await watcher.exited).code, watcher.stderr()).toBe(0);
    expect(closedUnanswered).toBe(3);
    expect(watcher.stderr()).toMatch(/closed the connection unanswered \(a busy port\?\); trying again\n/);
  });

  it('stops watching on SIGINT with exit code 130', async () => {
    server = await startTestObserver();
    const watcher = watch([server.url]);
    await watcher.waitForStderr('watching session');
    watcher.child.kill('SIGINT');
    const { code } = await watcher.exited;
    expect(code).toBe(130);
    expect(watcher.stderr()).not.toContain('unexpected');
  });

  it('in a terminal: swallows keys, quits on Ctrl-C with exit 0 and resets the modes the mirrored program set', async () => {
    server = await startTestObserver();
    const term = pty.spawn(process.execPath, [cli, 'observe', server.url], { cols: 80, rows: 24, env: { ...process.env, TERM: 'xterm-256color' } });
    let output = '';
    term.onData((d) => (output += d));
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    const until = async (text: string) => {
      await vi.waitFor(() => expect(output).toContain(text), { timeout: 30_000 });
    };
    await until('watching session');
    // The mirrored program turns on mouse reporting and the alternate screen.
    server.publishPty(Buffer.from('\x1b[?1049h\x1b[?1000h\x1b[?1006hmirrored TUI'));
    await until('mirrored TUI');
    term.write('typed-keys');
    term.write('\x03');
    expect(await exited).toBe(0);
    // The modes are reset after the keys were read: an echo of them would have come before this.
    await until('\x1b[?25h');
    const afterTui = output.slice(output.indexOf('mirrored TUI'));
    expect(afterTui).not.toContain('typed-keys');
    expect(afterTui).toContain('\x1b[?1000l');
    expect(afterTui).toContain('\x1b[?1049l');
    expect(afterTui).toContain('\x1b[?25h');
  });
});
