/**
 * The hub's queue budget: observers share `totalQueueBytes`, each between `minQueueBytes` and
 * `maxQueueBytes`, so many observers behind a flood cannot hold `maxQueueBytes` each.
 * Fakes stand in for the sockets and the screen mirror (the interfaces the hub is written against).
 */
import { describe, expect, it, vi } from 'vitest';
import { createObserverHub } from '../../src/observer/observer-hub.js';
import type { ObserverSocket } from '../../src/observer/observer-connection.js';
import type { ScreenMirror } from '../../src/observer/screen-mirror.js';
import { silentLogger } from '../../src/observer/observer-logger.js';
import { testHello } from './support/start-test-observer.js';

function fakeSocket() {
  const socket = {
    sent: [] as Buffer[],
    closed: undefined as { code: number; reason: string } | undefined,
    bufferedAmount: 0,
    send(data: Buffer) {
      socket.sent.push(data);
      socket.bufferedAmount += data.length; // never drains: a peer that does not read
    },
    close(code: number, reason: string) {
      socket.closed = { code, reason };
    },
    terminate() {},
  };
  return socket satisfies ObserverSocket;
}

const mirror: ScreenMirror = {
  write() {},
  replaceTail() {},
  resize() {},
  snapshot: (from) => Promise.resolve({ position: from, data: '' }),
  close: () => Promise.resolve(),
};

/** The join completed: after the hello (sent at once) the socket got its screen snapshot, so it is live. */
const live = (socket: ReturnType<typeof fakeSocket>) => vi.waitFor(() => expect(socket.sent.length).toBeGreaterThanOrEqual(2));

function hub() {
  return createObserverHub({
    hello: testHello,
    allowInput: false,
    maxObservers: 10,
    maxQueueBytes: 8000,
    totalQueueBytes: 10_000,
    minQueueBytes: 1000,
    snapshotBytes: 100,
    mirror,
    logger: silentLogger,
  });
}

describe('observer hub queue budget', () => {
  it('lets a single observer queue up to maxQueueBytes', async () => {
    const h = hub();
    const one = fakeSocket();
    h.join(one);
    await live(one);
    h.publishEvent({ kind: 'error', message: 'x'.repeat(5000), at: '2026-11-22T00:00:00.000Z' });
    expect(one.closed).toBeUndefined();
  });

  it('shares the budget among many observers, down to the floor, and says so when it drops one', async () => {
    const h = hub();
    const sockets = Array.from({ length: 5 }, () => fakeSocket());
    for (const s of sockets) h.join(s);
    for (const s of sockets) await live(s);
    // 10,000 / 5 = 2,000 bytes each: a 2,600-byte message is too much. Each drop leaves a larger
    // share to the others (2,500 for four, 3,333 for three), so the last three keep it.
    h.publishEvent({ kind: 'error', message: 'x'.repeat(2500), at: '2026-11-22T00:00:00.000Z' });
    expect(sockets.map((s) => s.closed?.reason.match(/over (\d+) bytes/)?.[1] ?? 'kept')).toEqual(['2000', '2500', 'kept', 'kept', 'kept']);
  });
});

describe('observer hub output source', () => {
  it('starts the source once for observers coming and going, stops it a moment after the last left, at once after a gap', async () => {
    // The grace timer is the subject: a fake clock runs it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const h = hub();
      const calls: boolean[] = [];
      h.setOutputSource({ watch: (on) => (calls.push(on), Promise.resolve()) });
      // Each comes and goes at once: every start would send the source's whole tail again.
      for (let i = 0; i < 50; i++) h.leave(h.join(fakeSocket())!);
      expect(calls).toEqual([true]);
      vi.advanceTimersByTime(999);
      expect(calls).toEqual([true]);
      vi.advanceTimersByTime(1);
      expect(calls).toEqual([true, false]);
      // After a gap the next joiner needs a fresh tail: stopped without waiting.
      h.join(fakeSocket());
      h.outputGap(100);
      expect(calls).toEqual([true, false, true, false]);
      h.end();
    } finally {
      vi.useRealTimers();
    }
  });
});
