/** The recognizer that decides where a late joiner's snapshot may be taken. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createVtBoundary } from '../../src/observer/vt-boundary.js';

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const params = fc.string({ unit: fc.constantFrom(...'0123456789;:?<=>'), maxLength: 8 });

/** Tokens of terminal output; `whole` tokens must not contain an inner boundary. */
const token = fc.oneof(
  printable.map((text) => ({ bytes: Buffer.from(text), whole: false })),
  fc.constantFrom('\r', '\n', '\t', '\x07', '\b').map((c) => ({ bytes: Buffer.from(c), whole: false })),
  fc
    .integer({ min: 0x80, max: 0x10ffff })
    .filter((cp) => cp < 0xd800 || cp > 0xdfff)
    .map((cp) => ({ bytes: Buffer.from(String.fromCodePoint(cp)), whole: true })),
  fc.tuple(params, fc.integer({ min: 0x40, max: 0x7e })).map(([p, final]) => ({ bytes: Buffer.from(`\x1b[${p}${String.fromCharCode(final)}`), whole: true })),
  fc.tuple(printable, fc.constantFrom('\x07', '\x1b\\')).map(([text, end]) => ({ bytes: Buffer.from(`\x1b]${text}${end}`), whole: true })),
  fc.tuple(fc.constantFrom('P', 'X', '^', '_'), printable).map(([kind, text]) => ({ bytes: Buffer.from(`\x1b${kind}${text}\x1b\\`), whole: true })),
  fc.constantFrom('\x1b7', '\x1b8', '\x1bc', '\x1b=', '\x1b(B', '\x1b)0', '\x1b#8').map((s) => ({ bytes: Buffer.from(s), whole: true })),
);

describe('vt boundary', () => {
  it('is at a boundary between tokens and never inside an escape sequence or UTF-8 character', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        const vt = createVtBoundary();
        for (const t of tokens) {
          for (let i = 0; i < t.bytes.length; i++) {
            vt.feed(t.bytes, i, i + 1);
            const inside = i < t.bytes.length - 1;
            if (t.whole && inside) expect(vt.atBoundary()).toBe(false);
          }
          expect(vt.atBoundary()).toBe(true);
        }
      }),
    );
  });

  it('finds the same boundaries however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (tokens, sizes) => {
        const stream = Buffer.concat(tokens.map((t) => t.bytes));
        const byteAtATime = createVtBoundary();
        const expected: boolean[] = [];
        for (let i = 0; i < stream.length; i++) {
          byteAtATime.feed(stream, i, i + 1);
          expected.push(byteAtATime.atBoundary());
        }
        // Same walk through feedToBoundary on chunks: each reported offset must be a boundary,
        // and the first boundary after each chunk start.
        const vt = createVtBoundary();
        let start = 0;
        let k = 0;
        while (start < stream.length) {
          const chunk = stream.subarray(start, start + sizes[k++ % sizes.length]!);
          const wasAt = vt.atBoundary();
          const found = vt.feedToBoundary(chunk, 0);
          if (wasAt) expect(found).toBe(0);
          else {
            const firstTrue = expected.slice(start, start + chunk.length).indexOf(true);
            expect(found).toBe(firstTrue < 0 ? -1 : firstTrue + 1);
          }
          if (found >= 0) vt.feed(chunk, found);
          expect(vt.atBoundary()).toBe(expected[start + chunk.length - 1]);
          start += chunk.length;
        }
      }),
    );
  });

  it('treats CAN and SUB as cancelling a sequence, and reset() as a fresh terminal', () => {
    const vt = createVtBoundary();
    vt.feed(Buffer.from('\x1b[12'));
    expect(vt.atBoundary()).toBe(false);
    vt.feed(Buffer.from('\x18'));
    expect(vt.atBoundary()).toBe(true);
    vt.feed(Buffer.from('\x1b]0;x'));
    vt.reset();
    expect(vt.atBoundary()).toBe(true);
  });
});
