/**
 * An observer that never reads while 200 MB of output flows: the session drops it and its memory
 * stays bounded. The server runs in its own process so its RSS is measured alone. Throughput
 * ratios belong to `bench/`, not here.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectObserver } from './support/test-observer.js';

const fixture = fileURLToPath(new URL('./fixtures/flood-observer.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/observer/observer-server.js', import.meta.url));
const MB = 1024 * 1024;

interface FloodReport {
  startRss: number;
  peakRss: number;
  warnings: string[];
}

describe('observer memory', () => {
  it('drops an observer that never reads while 200 MB flows, and memory stays bounded', async () => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.json` first');
    const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, FLOOD_MB: '200' } });
    const lines: Array<Record<string, unknown>> = [];
    const waiters: Array<() => void> = [];
    const wake = () => waiters.splice(0).forEach((resolve) => resolve());
    let buffered = '';
    let closed = false;
    child.stdout.setEncoding('utf8').on('data', (data: string) => {
      buffered += data;
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, i)) as Record<string, unknown>);
        buffered = buffered.slice(i + 1);
      }
      wake();
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        closed = true; // all of stdout has been read by now
        wake();
        resolve(code);
      }),
    );
    /** The n-th line the flood process printed, as soon as it is there. */
    const nextLine = async (n: number) => {
      while (lines.length < n) {
        if (closed) throw new Error('the flood process ended early');
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return lines[n - 1]!;
    };

    const { url } = (await nextLine(1)) as { url: string };
    const stuck = await connectObserver(url);
    await stuck.waitFor((m) => m.type === 'pty', 'the snapshot');
    // From here on the client reads nothing: the server's queue for it can only grow.
    (stuck.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    child.stdin.end('go\n');

    const report = (await nextLine(2)) as unknown as FloodReport;
    stuck.ws.terminate();
    expect(await exited).toBe(0);
    expect(report.warnings).toEqual([expect.stringMatching(/^observer: dropped observer fell behind/)]);
    // Measured here: about +95 MB with the drop, about +390 MB without it (the output, base64).
    expect((report.peakRss - report.startRss) / MB).toBeLessThan(200);
  }, 180_000);
});
