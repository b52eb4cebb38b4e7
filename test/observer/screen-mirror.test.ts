/**
 * The lazy screen mirror keeps only the tail of the output; its worker (a V8 isolate of its own)
 * runs only around snapshots. A snapshot after the worker was retired, a resize and a tail that
 * replaced the stream (the relay's, after nobody watched) must still show the right screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startScreenMirror, type ScreenMirror } from '../../src/observer/screen-mirror.js';
import { silentLogger } from '../../src/observer/observer-logger.js';

describe('lazy screen mirror', () => {
  let mirror: ScreenMirror | undefined;
  afterEach(async () => mirror?.close());

  const start = () =>
    startScreenMirror({ cols: 40, rows: 5, scrollbackLines: 100, maxBacklogBytes: 1 << 20, tailBytes: 1 << 16, lazy: true, idleWorkerMs: 20, logger: silentLogger });

  it('answers snapshots before and after its idle worker was retired, at the latest size and position', async () => {
    mirror = start();
    mirror.write(Buffer.from('first line\r\n'));
    const first = await mirror.snapshot(0, 1 << 20);
    expect(first?.data).toContain('first line');
    expect(first?.position).toBe(12);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the worker is gone by now
    mirror.resize(60, 5);
    mirror.write(Buffer.from('a line that is longer than forty columns, still one row\r\n'));
    const second = await mirror.snapshot(12, 1 << 20);
    expect(second?.data).toContain('a line that is longer than forty columns, still one row');
    expect(second?.position).toBe(12 + 57);
  });

  it('shows a replaced tail and counts it into the stream position', async () => {
    mirror = start();
    mirror.write(Buffer.from('old screen\r\n'));
    const tail = Buffer.from('\x1b[2J\x1b[Hcurrent screen');
    mirror.replaceTail(tail);
    const snapshot = await mirror.snapshot(0, 1 << 20);
    expect(snapshot?.data).toContain('current screen');
    expect(snapshot?.data).not.toContain('old screen');
    expect(snapshot?.position).toBe(12 + tail.length);
  });
});
