/**
 * The line framing is the first thing every byte from claude meets: it must give the same lines
 * whatever the chunking, and skip (and report) lines over the cap instead of buffering them.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSkippedLine, splitLines, type LineItem } from '../../src/frames/line-splitter.js';

async function collect(chunks: Buffer[], maxLineBytes?: number) {
  const overflows: number[] = [];
  const lines: string[] = [];
  for await (const item of splitLines(Readable.from(chunks, { objectMode: false }), { maxLineBytes }) as AsyncIterable<LineItem>) {
    if (isSkippedLine(item)) overflows.push(item.skippedBytes);
    else lines.push(item);
  }
  return { lines, overflows };
}

/**
 * What the framing must produce: split on \n or \r\n, a last line without newline treated as if
 * it had one, no phantom empty last line, long lines out and reported in order.
 */
function model(text: string, maxLineBytes: number) {
  const segments = (text === '' || text.endsWith('\n') ? text : `${text}\n`).split(/\r?\n/);
  segments.pop();
  return {
    lines: segments.filter((s) => Buffer.byteLength(s) <= maxLineBytes),
    overflows: segments.filter((s) => Buffer.byteLength(s) > maxLineBytes).map((s) => Buffer.byteLength(s)),
  };
}

function cut(bytes: Buffer, points: number[]): Buffer[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let last = 0;
  for (const p of sorted) {
    if (p > last) chunks.push(bytes.subarray(last, p));
    last = Math.max(last, p);
  }
  if (last < bytes.length) chunks.push(bytes.subarray(last));
  return chunks;
}

const lineArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('a', '\r', 'é', '€', '😀', '{', '"'), maxLength: 60 }),
);
const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 12 }), fc.array(fc.constantFrom('\n', '\r\n'), { minLength: 12, maxLength: 12 }), fc.boolean())
  .map(([lines, endings, trailing]) => lines.map((l, i) => l + (i < lines.length - 1 || trailing ? endings[i] : '')).join(''));

describe('splitLines', () => {
  it('gives the same lines and overflow reports for any chunking (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 1, max: 80 }), async (text, points, max) => {
        const bytes = Buffer.from(text);
        const expected = model(text, max);
        expect(await collect([bytes], max)).toEqual(expected);
        expect(await collect(cut(bytes, points), max)).toEqual(expected);
        // One byte at a time splits every UTF-8 character and every \r\n.
        expect(
          await collect(
            [...bytes].map((b) => Buffer.from([b])),
            max,
          ),
        ).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('carries a partial line across chunks and emits a last line without newline', async () => {
    const { lines } = await collect([Buffer.from('{"type":"a"'), Buffer.from('}\r\n{"ty'), Buffer.from('pe":"b"}')]);
    expect(lines).toEqual(['{"type":"a"}', '{"type":"b"}']);
  });

  it('skips a line longer than the cap that arrives in many chunks, reports its size once, and keeps the next lines', async () => {
    const long = Buffer.alloc(10_000, 'x');
    const chunks = [Buffer.from('before\n'), ...cut(long, [100, 2000, 5000, 9999]), Buffer.from('\r\nafter\n')];
    expect(await collect(chunks, 1000)).toEqual({ lines: ['before', 'after'], overflows: [10_000] });
  });

  it('skips an over-long line that arrives whole in one chunk', async () => {
    expect(await collect([Buffer.from(`ok\n${'y'.repeat(50)}\nok2`)], 10)).toEqual({ lines: ['ok', 'ok2'], overflows: [50] });
  });

  it('reports a skipped line between the lines around it', async () => {
    const stream = splitLines(Readable.from([Buffer.from(`one\n${'x'.repeat(3000)}\ntwo\n${'y'.repeat(40)}`)]), { maxLineBytes: 20 });
    const order: LineItem[] = [];
    for await (const item of stream) order.push(item as LineItem);
    expect(order).toEqual(['one', { skippedBytes: 3000 }, 'two', { skippedBytes: 40 }]);
  });

  it('measures the cap in bytes, not characters', async () => {
    // 4 characters of 3 bytes each: 12 bytes.
    expect(await collect([Buffer.from('€€€€\n€€€\n')], 10)).toEqual({ lines: ['€€€'], overflows: [12] });
  });

  it('passes an error of the input on to the reader', async () => {
    const input = new Readable({ read() {} });
    const lines = splitLines(input);
    const failure = new Promise((_, reject) => lines.on('error', reject));
    lines.resume();
    input.destroy(new Error('disk on fire'));
    await expect(failure).rejects.toThrow('disk on fire');
  });
});
