/**
 * Stream lines → frames: tolerant of the noise real streams carry, loud (WARN) about every line
 * it skips, and never stopped by one.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { frames$, parseFrameLine } from '../../src/frames/frame-parser.js';

function recordingLogger() {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const debugs: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  return {
    warnings,
    debugs,
    warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }),
    debug: (message: string, fields?: Record<string, unknown>) => debugs.push({ message, fields }),
  };
}

function framesOf(chunks: Array<string | Buffer>, options: { maxLineBytes?: number; debugLines?: boolean } = {}) {
  const logger = recordingLogger();
  const input = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  return lastValueFrom(frames$(input, { logger, source: 'test', ...options }).pipe(toArray())).then((frames) => ({ frames, logger }));
}

describe('parseFrameLine', () => {
  it('accepts a JSON object with a string type, with a BOM, CR and whitespace around it', () => {
    expect(parseFrameLine('\uFEFF  {"type":"system","subtype":"init","session_id":"s1"}\r  ')).toEqual({
      frame: { type: 'system', subtype: 'init', session_id: 's1' },
    });
  });

  it('accepts a frame whose strings hold replacement characters (a tool read a binary file)', () => {
    expect(parseFrameLine('{"type":"user","text":"\uFFFD\uFFFDPNG"}')).toEqual({ frame: { type: 'user', text: '\uFFFD\uFFFDPNG' } });
  });

  it.each([
    ['', 'empty line'],
    ['   \t', 'empty line'],
    ['[1,2]', 'not a JSON object'],
    ['"text"', 'not a JSON object'],
    ['Loading…', 'not a JSON object'],
    ['{"type": 3}', 'JSON object without a string "type"'],
    ['{"subtype":"x"}', 'JSON object without a string "type"'],
    ['{"type":"assistant","message":{"content":[{"type":"te', 'invalid JSON'],
    ['{"type":"x"}\u0000\u0001', 'binary data'],
    ['\uFFFD\uFFFDPNG', 'binary data'],
    ['null', 'not a JSON object'],
  ])('rejects %j (%s)', (line, reason) => {
    const parsed = parseFrameLine(line);
    expect('error' in parsed && parsed.error).toContain(reason);
  });

  it('never throws, whatever the line (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.json(),
          fc.uint8Array().map((b) => Buffer.from(b).toString('utf8')),
        ),
        (line) => {
          const parsed = parseFrameLine(line);
          expect('frame' in parsed || 'error' in parsed).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('round-trips any frame-shaped JSON object, with noise around it (fuzz)', () => {
    const frameArb = fc.record({ type: fc.string() }).chain((head) => fc.dictionary(fc.string(), fc.jsonValue()).map((rest) => ({ ...rest, ...head })));
    fc.assert(
      fc.property(frameArb, fc.constantFrom('', '\uFEFF', ' ', '\t'), fc.constantFrom('', '\r', ' ', ' \r'), (frame, before, after) => {
        const line = before + JSON.stringify(frame) + after;
        expect(parseFrameLine(line)).toEqual({ frame: JSON.parse(JSON.stringify(frame)) });
      }),
      { numRuns: 1000 },
    );
  });
});

describe('frames$', () => {
  it('emits the valid frames in order and WARNs once for each bad line, not for blank ones', async () => {
    const input = [
      '\uFEFF{"type":"system","subtype":"init","session_id":"abc"}\r\n',
      '\n',
      'npm WARN something\n',
      Buffer.from([0x00, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x0a]),
      '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}\n',
      '{"type":"assistant","message":{"content":[{"ty\n',
      '{"type":"result","result":"done","total_cost_usd":0.5}',
    ];
    const { frames, logger } = await framesOf(input);
    expect(frames.map((f) => f.type)).toEqual(['system', 'assistant', 'result']);
    expect(logger.warnings.map((w) => w.message)).toEqual([
      'Skipped a test line: not a JSON object',
      'Skipped a test line: binary data',
      expect.stringContaining('Skipped a test line: invalid JSON'),
    ]);
    // The excerpt in the log is escaped, so binary garbage cannot corrupt a log file.
    expect(logger.warnings[1]!.fields).toMatchObject({ source: 'test', line: expect.stringContaining('\\u0000') });
  });

  it('WARNs with the size of a line over the cap and keeps going', async () => {
    const { frames, logger } = await framesOf(['{"type":"a"}\n', `{"type":"big","pad":"${'z'.repeat(5000)}"}\n`, '{"type":"b"}\n'], { maxLineBytes: 1000 });
    expect(frames.map((f) => f.type)).toEqual(['a', 'b']);
    expect(logger.warnings).toEqual([
      { message: 'Skipped a test line longer than the limit', fields: { source: 'test', line_no: 2, bytes: 5023, max_line_bytes: 1000 } },
    ]);
  });

  it('interleaves WARNs and frames in stream order', async () => {
    const ordered: string[] = [];
    const input = Readable.from([Buffer.from(`{"type":"a"}\nnoise\n${'x'.repeat(5000)}\n{"type":"b"}\n`)]);
    const logger = { warn: (message: string) => ordered.push(`warn: ${message}`) };
    await new Promise<void>((resolve) =>
      frames$(input, { logger, source: 'test', maxLineBytes: 1000 }).subscribe({ next: (f) => ordered.push(`frame ${f.type}`), complete: resolve }),
    );
    expect(ordered).toEqual(['frame a', 'warn: Skipped a test line: not a JSON object', 'warn: Skipped a test line longer than the limit', 'frame b']);
  });

  it('logs raw lines at DEBUG when asked, bounded', async () => {
    const { logger } = await framesOf([`{"type":"a","x":"${'q'.repeat(10_000)}"}\n`], { debugLines: true });
    expect(logger.debugs).toHaveLength(1);
    expect((logger.debugs[0]!.fields!.line as string).length).toBeLessThan(4200);
  });

  it('gives the same frames and warnings for any chunking of a noisy stream (fuzz)', async () => {
    const lineArb = fc.oneof(
      fc.record({ type: fc.string(), n: fc.integer() }).map((f) => JSON.stringify(f)),
      fc.string(),
      fc.uint8Array({ maxLength: 30 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.record({ type: fc.string() }).map((f) => JSON.stringify(f).slice(0, -2)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 15 }), fc.array(fc.nat(), { maxLength: 10 }), async (lines, points) => {
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
        const whole = await framesOf([bytes]);
        const cuts = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...cuts, bytes.length]
          .slice(1)
          .map((end, i, all) => bytes.subarray(i === 0 ? 0 : all[i - 1], end))
          .filter((c) => c.length > 0);
        const chunked = await framesOf(chunks);
        expect(chunked.frames).toEqual(whole.frames);
        expect(chunked.logger.warnings).toEqual(whole.logger.warnings);
        const expected = lines.map((l) => parseFrameLine(l)).flatMap((p) => ('frame' in p ? [p.frame] : []));
        expect(whole.frames).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('errors when the input errors, after the frames before it', async () => {
    const input = new Readable({ read() {} });
    const seen: string[] = [];
    const done = new Promise((resolve, reject) =>
      frames$(input, { logger: recordingLogger() }).subscribe({ next: (f) => seen.push(f.type), error: reject, complete: () => resolve('complete') }),
    );
    input.push('{"type":"one"}\n');
    setImmediate(() => input.destroy(new Error('EIO')));
    await expect(done).rejects.toThrow('EIO');
    expect(seen).toEqual(['one']);
  });

  it('destroys the input when the subscriber unsubscribes', async () => {
    const input = new Readable({ read() {} });
    const subscription = frames$(input, { logger: recordingLogger() }).subscribe();
    subscription.unsubscribe();
    await new Promise((resolve) => input.once('close', resolve));
    expect(input.destroyed).toBe(true);
  });
});
