/** The observer's allocation-free base64 must be exactly Node's, for any bytes at any offset. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Into, base64Length } from '../../src/observer/base64-into.js';

describe('base64Into', () => {
  it("writes what Buffer's own base64 is, and says where it ended", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat(16), (bytes, at) => {
        const target = Buffer.alloc(at + base64Length(bytes.length) + 3, 0x2e);
        const end = base64Into(bytes, target, at);
        expect(end).toBe(at + base64Length(bytes.length));
        expect(target.subarray(at, end).toString('latin1')).toBe(Buffer.from(bytes).toString('base64'));
        expect(target.subarray(0, at).every((b) => b === 0x2e) && target.subarray(end).every((b) => b === 0x2e)).toBe(true);
      }),
    );
  });

  it('covers every byte value in every position of a group', () => {
    const bytes = Uint8Array.from({ length: 256 * 3 + 2 }, (_, i) => (i * 97 + (i >> 8)) & 255);
    const target = Buffer.alloc(base64Length(bytes.length));
    base64Into(bytes, target, 0);
    expect(target.toString('latin1')).toBe(Buffer.from(bytes).toString('base64'));
  });
});
