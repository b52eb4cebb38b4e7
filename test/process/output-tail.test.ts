/** The bounded output tail: always the last bytes, never a broken character at the front. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutputTail } from '../../src/process/output-tail.js';

describe('createOutputTail', () => {
  it('holds the last `limit` bytes of any chunking, minus a character cut at the front (fuzz)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 1, max: 200 }), (chunks, limit) => {
        const tail = createOutputTail(limit);
        chunks.forEach((c) => tail.push(Buffer.from(c)));
        const all = Buffer.from(chunks.join(''));
        const text = tail.text();
        const bytes = Buffer.byteLength(text);
        expect(bytes).toBeLessThanOrEqual(limit);
        // What is kept is a suffix of the output, short of the limit by less than one character.
        expect(all.toString('utf8').endsWith(text)).toBe(true);
        expect(bytes).toBeGreaterThan(Math.min(limit, all.length) - 4);
        expect(tail.truncated).toBe(all.length > limit);
      }),
      { numRuns: 1000 },
    );
  });
});
