/**
 * Observers connecting and dropping must not make the screen worker fall behind: joiners that come
 * while one screen is being made share the next one, and a joiner that left before its turn costs
 * nothing. A fake worker records what the mirror asks of it, so no timing is involved.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startScreenMirror } from '../../src/observer/screen-mirror.js';
import type { MirrorReply, MirrorRequest } from '../../src/observer/screen-worker-protocol.js';
import { silentLogger } from '../../src/observer/observer-logger.js';

class FakeWorker extends EventEmitter {
  readonly asked: Array<Extract<MirrorRequest, { type: 'snapshot' }>> = [];
  postMessage(message: MirrorRequest): void {
    if (message.type === 'snapshot') this.asked.push(message);
  }
  answer(position: number, data: string): void {
    const request = this.asked.at(-1)!;
    this.emit('message', { type: 'snapshot', id: request.id, position, data } satisfies MirrorReply);
  }
  terminate(): Promise<number> {
    return Promise.resolve(0);
  }
}

function start() {
  const worker = new FakeWorker();
  const mirror = startScreenMirror({
    cols: 40,
    rows: 5,
    scrollbackLines: 100,
    tailBytes: 1 << 16,
    idleWorkerMs: 60_000,
    logger: silentLogger,
    spawnWorker: () => worker,
  });
  return { worker, mirror };
}

describe('screen mirror joiners', () => {
  it('asks the worker once for joiners that come while a screen is being made, and they share the next', async () => {
    const { worker, mirror } = start();
    mirror.write(Buffer.from('some output\r\n'));
    const first = mirror.snapshot(0, 1 << 20);
    mirror.write(Buffer.from('more\r\n'));
    const later = Array.from({ length: 50 }, () => mirror.snapshot(13, 1 << 20));
    expect(worker.asked).toHaveLength(1);
    worker.answer(5, 'screen one');
    expect(await first).toEqual({ position: 5, data: 'screen one' });
    // The first screen is older than where the others joined: one more request serves all 50.
    expect(worker.asked).toHaveLength(2);
    expect(worker.asked[1]).toMatchObject({ from: 13 });
    worker.answer(19, 'screen two');
    for (const snapshot of await Promise.all(later)) expect(snapshot).toEqual({ position: 19, data: 'screen two' });
    expect(worker.asked).toHaveLength(2);
    await mirror.close();
  });

  it('asks nothing for joiners that left before their turn', async () => {
    const { worker, mirror } = start();
    const first = mirror.snapshot(0, 1 << 20);
    let open = true;
    const gone = Array.from({ length: 20 }, () => mirror.snapshot(10, 1 << 20, () => open));
    open = false;
    worker.answer(0, 'screen');
    expect(await first).toEqual({ position: 0, data: 'screen' });
    expect(await Promise.all(gone)).toEqual(Array(20).fill(undefined));
    expect(worker.asked).toHaveLength(1);
    await mirror.close();
  });
});
