/**
 * The screen mirror keeps only the tail of the output; its worker (a V8 isolate of its own)
 * runs only around snapshots. A snapshot after the worker was retired, a resize and a tail that
 * replaced the stream (the relay's, after nobody watched) must still show the right screen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScreenMirror, type ScreenMirror } from '../../src/observer/screen-mirror.js';
import { silentLogger } from '../../src/observer/observer-logger.js';

describe('screen mirror', () => {
  let mirror: ScreenMirror | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await mirror?.close();
  });

  const start = (tailBytes = 1 << 16, idleWorkerMs = 20) =>
    startScreenMirror({ cols: 40, rows: 5, scrollbackLines: 100, tailBytes, idleWorkerMs, logger: silentLogger });

  it('answers snapshots before and after its idle worker was retired, at the latest size and position', async () => {
    // The idle timer is the subject: a fake clock runs it (the worker's messages stay real I/O).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    mirror = start();
    mirror.write(Buffer.from('first line\r\n'));
    const first = await mirror.snapshot(0, 1 << 20);
    expect(first?.data).toContain('first line');
    expect(first?.position).toBe(12);
    expect(vi.getTimerCount()).toBe(1); // the idle timer, armed by the reply
    vi.advanceTimersByTime(20);
    expect(vi.getTimerCount()).toBe(0); // it ran: the worker is retired
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

  it('gives a running worker only the new output, so a burst of joiners parses the tail once', async () => {
    // The tail holds 16 bytes: a worker restarted from it could not show the first line any more.
    mirror = start(16, 60_000);
    mirror.write(Buffer.from('first\r\n'));
    expect((await mirror.snapshot(0, 1 << 20))?.data).toContain('first');
    mirror.write(Buffer.from('second line\r\n'));
    const next = await mirror.snapshot(0, 1 << 20);
    expect(next?.data).toContain('first');
    expect(next?.data).toContain('second line');
    expect(next?.position).toBe(7 + 13);
  });

  it('starts afresh from a replaced tail even while its worker runs', async () => {
    mirror = start(1 << 16, 60_000);
    mirror.write(Buffer.from('old screen\r\n'));
    expect((await mirror.snapshot(0, 1 << 20))?.data).toContain('old screen');
    mirror.replaceTail(Buffer.from('new screen'));
    const snapshot = await mirror.snapshot(0, 1 << 20);
    expect(snapshot?.data).toContain('new screen');
    expect(snapshot?.data).not.toContain('old screen');
  });
});
