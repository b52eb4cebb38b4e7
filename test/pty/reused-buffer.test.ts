/** The reused batch buffer: holds exactly what was appended, however it grew, and starts small again after a big batch. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReusedBuffer } from '../../src/pty/reused-buffer.js';

describe('ReusedBuffer', () => {
  it('holds exactly what was appended since the last clear', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), { maxLength: 6 }), (batches) => {
        const buffer = new ReusedBuffer(16, 256);
        for (const batch of batches) {
          for (const piece of batch) buffer.append(piece);
          expect([...buffer.bytes()]).toEqual(batch.flatMap((piece) => [...piece]));
          buffer.clear();
          expect(buffer.length).toBe(0);
        }
      }),
    );
  });

  it('reuses its memory between batches, and lets a large one go', () => {
    const buffer = new ReusedBuffer(16, 64);
    buffer.append(Buffer.alloc(10, 1));
    const first = buffer.bytes().buffer;
    buffer.clear();
    buffer.append(Buffer.alloc(12, 2));
    expect(buffer.bytes().buffer).toBe(first);
    buffer.append(Buffer.alloc(100, 3));
    const large = buffer.bytes().buffer;
    expect(large.byteLength).toBeGreaterThanOrEqual(112);
    buffer.clear();
    buffer.append(Buffer.alloc(1, 4));
    expect(buffer.bytes().buffer).not.toBe(large);
    expect(buffer.bytes().buffer.byteLength).toBe(16);
  });
});
