/** Pooled observer messages: reused only after every holder let go, never while one still holds it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FramePool, sizeClass } from '../../src/observer/frame-pool.js';

describe('FramePool', () => {
  it('reuses a buffer once the last holder released it', () => {
    const pool = new FramePool();
    const first = pool.acquire(5000);
    pool.retain(first); // a socket write
    pool.release(first); // the hub is done handing it out
    const second = pool.acquire(5000);
    expect(second.buffer).not.toBe(first.buffer); // the write still holds the first
    pool.release(first); // the write's callback
    const third = pool.acquire(5100); // same size class
    expect(third.buffer).toBe(first.buffer);
    expect(third.length).toBe(5100);
  });

  it('never reuses a message a holder did not release, and ignores messages it did not make', () => {
    const pool = new FramePool();
    const kept = pool.acquire(100);
    pool.retain(kept);
    pool.release(kept);
    expect(pool.acquire(100).buffer).not.toBe(kept.buffer);
    const foreign = Buffer.alloc(10);
    pool.retain(foreign);
    pool.release(foreign);
    pool.release(foreign);
    expect(pool.freeBufferBytes).toBe(0);
  });

  it('keeps at most its free budget', () => {
    const pool = new FramePool(10_000);
    const messages = [pool.acquire(4000), pool.acquire(4000), pool.acquire(4000)];
    for (const m of messages) pool.release(m);
    expect(pool.freeBufferBytes).toBe(8192);
  });

  it('reuses a released message for the next one of its size class', () => {
    const pool = new FramePool();
    const a = pool.acquire(200).fill(0x61);
    pool.release(a);
    const b = pool.acquire(130).fill(0x62);
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(130);
    expect(b.toString()).toBe('b'.repeat(130));
  });

  it('sizes classes at most a quarter above what was asked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 * 1024 * 1024 }), (bytes) => {
        const size = sizeClass(bytes);
        expect(size).toBeGreaterThanOrEqual(bytes);
        expect(size).toBeLessThanOrEqual(Math.max(4096, bytes * 1.25));
        expect(sizeClass(size)).toBe(size);
      }),
    );
  });
});
