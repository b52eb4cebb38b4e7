/**
 * The relay's streams on ccc's side: what arrives before the caller could subscribe is held and
 * delivered in order, the streams complete only after it, and a tail's waiters are let go by the
 * tail or by the relay's end.
 */
import { describe, expect, it } from 'vitest';
import { Subject } from '../../src/rx.js';
import { bytePathStreams, type BytePathStreams } from '../../src/pty/byte-path-streams.js';
import { RelayOutlets } from '../../src/pty/relay-outlets.js';

const streams = (): BytePathStreams => bytePathStreams(Subject);

function record(s: BytePathStreams) {
  const seen: string[] = [];
  s.ptyOutput$.subscribe({ next: (b) => seen.push(`O:${b.toString()}`), complete: () => seen.push('O done') });
  s.stdin$.subscribe((b) => seen.push(`I:${b.toString()}`));
  s.gap$.subscribe((n) => seen.push(`G:${n}`));
  s.errors$.subscribe({ next: (m) => seen.push(`E:${m}`), complete: () => seen.push('E done') });
  return seen;
}

const gapFrame = (n: number) => {
  const payload = Buffer.alloc(8);
  payload.writeBigUInt64LE(BigInt(n));
  return { type: 'G', payload };
};

describe('RelayOutlets', () => {
  it('holds what came before attach, a copy of each payload, and delivers it in order after; the end completes the streams after it', async () => {
    const outlets = new RelayOutlets();
    const reused = Buffer.from('one');
    outlets.frame({ type: 'O', payload: reused });
    reused.write('two'); // the decoder reuses its buffer
    outlets.error('early');
    outlets.frame({ type: 'I', payload: Buffer.from('k') });
    outlets.frame(gapFrame(7));
    outlets.dispose();
    const s = streams();
    const completed = outlets.attach(s);
    const seen = record(s);
    expect(seen).toEqual([]); // the caller subscribes first; the held items follow on the next turn
    await completed;
    expect(seen).toEqual(['O:one', 'E:early', 'I:k', 'G:7', 'O done', 'E done']);
  });

  it('delivers at once after the held items are out, and completes at its end', async () => {
    const outlets = new RelayOutlets();
    const s = streams();
    const completed = outlets.attach(s);
    const seen = record(s);
    await new Promise((resolve) => setImmediate(resolve));
    outlets.frame({ type: 'O', payload: Buffer.from('live') });
    expect(seen).toEqual(['O:live']);
    outlets.dispose();
    await completed;
    expect(seen).toEqual(['O:live', 'O done', 'E done']);
  });

  it('lets a tail waiter go when the tail arrives, and at once after the end', async () => {
    const outlets = new RelayOutlets();
    const s = streams();
    void outlets.attach(s);
    await new Promise((resolve) => setImmediate(resolve));
    const tails: string[] = [];
    s.tail$.subscribe((b) => tails.push(b.toString()));
    const waiting = outlets.nextTail();
    outlets.frame({ type: 'R', payload: Buffer.from('screen') });
    await waiting;
    expect(tails).toEqual(['screen']);
    const pending = outlets.nextTail();
    outlets.dispose();
    await pending;
    await outlets.nextTail();
  });
});
