/** The screen mirror's tail: always the last `capacity` bytes written, oldest first. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteRing } from '../../src/pty/byte-ring.js';

describe('ByteRing', () => {
  it('keeps exactly the last bytes written, for any sequence of writes and replaces', () => {
    const op = fc.record({ replace: fc.boolean(), bytes: fc.uint8Array({ maxLength: 40 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 24 }), fc.array(op, { maxLength: 30 }), (capacity, ops) => {
        const ring = new ByteRing(capacity);
        let model: number[] = [];
        for (const { replace, bytes } of ops) {
          if (replace) {
            ring.replace(bytes);
            model = [...bytes];
          } else {
            ring.write(bytes);
            model.push(...bytes);
          }
          model = capacity === 0 ? [] : model.slice(-capacity);
          expect([...ring.contents()]).toEqual(model);
          expect(ring.length).toBe(model.length);
        }
      }),
    );
  });

  it('copies what it is given and hands out buffers of their own', () => {
    const ring = new ByteRing(8);
    const input = Buffer.from('abcdef');
    ring.write(input);
    input.fill(0x7a);
    const out = ring.contents();
    expect(out.toString()).toBe('abcdef');
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(6);
    ring.clear();
    expect(ring.contents().length).toBe(0);
  });
});
