/**
 * Observers connecting and dropping must not make the screen worker fall behind: joiners that come
 * while one screen is being made share it (or the next one, when it is older than where they
 * joined), and a joiner that leaves takes its work with it. A fake worker records what the mirror
 * asks of it, so no timing is involved.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startScreenMirror } from '../../src/observer/screen-mirror.js';
import type { MirrorReply, MirrorRequest } from '../../src/observer/screen-worker-protocol.js';
import { silentLogger } from '../../src/observer/observer-logger.js';

class FakeWorker extends EventEmitter {
  readonly requests: MirrorRequest[] = [];
  terminated = false;
  postMessage(message: MirrorRequest): void {
    this.requests.push(message);
  }
  get asked() {
    return this.requests.filter((r): r is Extract<MirrorRequest, { type: 'snapshot' }> => r.type === 'snapshot');
  }
  /** Answers the last snapshot request with a screen taken at `position`. */
  answer(position: number, data: string): void {
    const request = this.asked.at(-1)!;
    this.emit('message', { type: 'snapshot', id: request.id, position, data } satisfies MirrorReply);
  }
  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(0);
  }
}

function start(idleWorkerMs = 60_000) {
  const workers: FakeWorker[] = [];
  const mirror = startScreenMirror({
    cols: 40,
    rows: 5,
    scrollbackLines: 100,
    tailBytes: 1 << 16,
    idleWorkerMs,
    logger: silentLogger,
    spawnWorker: () => {
      workers.push(new FakeWorker());
      return workers.at(-1)!;
    },
  });
  return { worker: () => workers.at(-1)!, workers, mirror };
}

describe('screen mirror joiners', () => {
  it('asks the worker once for joiners that come while a screen is being made, and they share it', async () => {
    const { worker, mirror } = start();
    mirror.write(Buffer.from('some output\r\n'));
    const joiners = Array.from({ length: 50 }, () => mirror.snapshot(13, 1 << 20));
    expect(worker().asked).toHaveLength(1);
    worker().answer(13, 'the screen');
    const snapshots = await Promise.all(joiners);
    for (const snapshot of snapshots) expect(snapshot).toEqual({ position: 13, data: 'the screen' });
    // One object: its encoded message is shared too.
    expect(new Set(snapshots).size).toBe(1);
    expect(worker().asked).toHaveLength(1);
    await mirror.close();
  });

  it('asks once more for the joiners a screen is too old for, and they share that one', async () => {
    const { worker, mirror } = start();
    mirror.write(Buffer.from('some output\r\n'));
    const first = mirror.snapshot(0, 1 << 20);
    mirror.write(Buffer.from('more\r\n'));
    const later = Array.from({ length: 50 }, () => mirror.snapshot(19, 1 << 20));
    expect(worker().asked).toHaveLength(1);
    // The screen came from inside an escape sequence's end at 5: older than where the others joined.
    worker().answer(5, 'screen one');
    expect(await first).toEqual({ position: 5, data: 'screen one' });
    expect(worker().asked).toHaveLength(2);
    expect(worker().asked[1]).toMatchObject({ from: 19 });
    worker().answer(19, 'screen two');
    for (const snapshot of await Promise.all(later)) expect(snapshot).toEqual({ position: 19, data: 'screen two' });
    expect(worker().asked).toHaveLength(2);
    await mirror.close();
  });

  it('feeds the worker the output that comes while a screen is being made', async () => {
    const { worker, mirror } = start();
    mirror.write(Buffer.from('inside \x1b[3'));
    const joiner = mirror.snapshot(10, 1 << 20);
    mirror.write(Buffer.from('1m red'));
    const writes = worker().requests.filter((r) => r.type === 'write' || r.type === 'reset');
    expect(writes.map((r) => [r.at, Buffer.from(r.data).toString()])).toEqual([
      [0, 'inside \x1b[3'],
      [10, '1m red'],
    ]);
    worker().answer(13, 'screen');
    expect(await joiner).toEqual({ position: 13, data: 'screen' });
    await mirror.close();
  });

  it('lets a joiner that left go at once, and withdraws the request nobody waits for', async () => {
    const { worker, workers, mirror } = start(0);
    mirror.write(Buffer.from('output\r\n'));
    const stays = new AbortController();
    const leaves = Array.from({ length: 20 }, () => new AbortController());
    const staying = mirror.snapshot(8, 1 << 20, stays.signal);
    const leaving = leaves.map((c) => mirror.snapshot(8, 1 << 20, c.signal));
    for (const c of leaves) c.abort();
    expect(await Promise.all(leaving)).toEqual(Array(20).fill(undefined));
    expect(worker().requests.filter((r) => r.type === 'cancel')).toEqual([]);
    // The last one waiting leaves: the worker is told to drop the screen it is making.
    stays.abort();
    expect(await staying).toBeUndefined();
    const id = worker().asked[0]!.id;
    expect(worker().requests.at(-1)).toEqual({ type: 'cancel', id });
    expect(worker().asked).toHaveLength(1);
    // Its late answer is nobody's; a new joiner gets a screen of its own.
    worker().answer(8, 'stale');
    await expect.poll(() => worker().terminated).toBe(true);
    const next = mirror.snapshot(8, 1 << 20);
    expect(workers).toHaveLength(2);
    workers[1]!.answer(8, 'fresh');
    expect(await next).toEqual({ position: 8, data: 'fresh' });
    await mirror.close();
  });

  it('asks nothing for a joiner that left before it asked', async () => {
    const { workers, mirror } = start();
    const gone = new AbortController();
    gone.abort();
    expect(await mirror.snapshot(0, 1 << 20, gone.signal)).toBeUndefined();
    expect(workers).toHaveLength(0);
    await mirror.close();
  });
});
