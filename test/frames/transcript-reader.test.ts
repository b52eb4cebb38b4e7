/**
 * A transcript read on from where the last reading stopped must say what one reading of the whole
 * file says, whatever the appends between readings: lines torn mid-write, UTF-8 characters cut
 * between chunks, `\r\n`, garbage, over-long lines; in one process (the reader kept) and across
 * processes (the cursor through JSON, as the standalone hook keeps it in the session state). And
 * it must cost what is new: the bytes read, not the file's size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { parseFrameLine } from '../../src/frames/frame-lines.js';
import { parseTranscriptCursor } from '../../src/frames/transcript-cursor.js';
import { TranscriptReader } from '../../src/frames/transcript-reader.js';
import { createTranscriptSummary } from '../../src/frames/transcript-summary.js';
import { LIMIT_RESUME_NOTE } from '../../src/loop/limit-resume-note.js';
import { countBytesRead } from '../support/bytes-read.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-reader-'));
  file = path.join(dir, 'session.jsonl');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The whole-file reading, written independently of the reader: split the bytes on `\n`, a last
 * line without newline is a line, a line over `max` bytes (its `\r` ending aside) is no frame,
 * every other line is what parseFrameLine makes of it, folded in order.
 */
function wholeReading(bytes: Buffer, max: number) {
  const fold = createTranscriptSummary();
  const frames: Frame[] = [];
  const parts: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    parts.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  const complete = parts.length;
  if (start < bytes.length) parts.push(bytes.subarray(start));
  parts.forEach((part, i) => {
    const line = part.at(-1) === 0x0d ? part.subarray(0, -1) : part;
    if (line.length > max) return;
    const parsed = parseFrameLine(line.toString('utf8'));
    if (!('frame' in parsed)) return;
    fold.add(parsed.frame);
    if (i < complete) frames.push(parsed.frame);
  });
  return { summary: fold.result(), committedFrames: frames };
}

const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });
const assistant = (id: string, text: string) => ({ type: 'assistant', message: { id, role: 'assistant', content: [{ type: 'text', text }] } });
const goal = (fields: Record<string, unknown>) => ({ type: 'attachment', attachment: { type: 'goal_status', condition: 'tests pass ✓', ...fields } });

/** Lines a session writes, and lines it should not: every kind the summary reacts to, many non-ASCII. */
const lineArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => JSON.stringify(user(`prompt ${text}`))),
  fc.constantFrom('héllo wörld', '日本語のタスク', 'emoji 🎉🚀 task', '€ and ✓').map((text) => JSON.stringify(user(text))),
  fc
    .tuple(fc.constantFrom('m1', 'm2', 'm3'), fc.string({ unit: 'grapheme', maxLength: 30 }))
    .map(([id, text]) => JSON.stringify(assistant(id, `ánswer ${text}`))),
  fc.constant(JSON.stringify(user([{ type: 'tool_result', tool_use_id: 't', content: 'ok ✓' }]))),
  fc.constant(JSON.stringify(user('Stop hook feedback:\nadd tests', { isMeta: true }))),
  fc.constant(JSON.stringify({ type: 'system', subtype: 'stop_hook_summary' })),
  fc.constant(JSON.stringify(user(LIMIT_RESUME_NOTE))),
  fc.constantFrom(
    JSON.stringify(goal({ met: false, sentinel: true })),
    JSON.stringify(goal({ met: false, reason: 'not yet' })),
    JSON.stringify(goal({ met: true, reason: 'done' })),
    JSON.stringify(user('<command-name>/goal</command-name><command-args>tests pass ✓</command-args>')),
  ),
  fc.constantFrom('', 'not json', '{"type":"assistant","mess', '\u0000\u0001binary', '[1,2]', '{"no":"type"}'),
  fc.constant(JSON.stringify(user('x'.repeat(300)))),
);

/** A transcript's bytes, and the points where claude's appends end (any byte: inside a character, a `\r\n`). */
const appendsArb = fc
  .tuple(
    fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { maxLength: 25 }),
    fc.boolean(),
    fc.array(fc.nat(), { maxLength: 12 }),
    fc.constantFrom(16 * 1024 * 1024, 200),
  )
  .map(([lines, trailing, points, max]) => {
    const text = lines.map(([line, end], i) => line + (i < lines.length - 1 || trailing ? end : '')).join('');
    const bytes = Buffer.from(text);
    const cuts = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
    return { bytes, cuts: [...cuts, bytes.length], max };
  });

describe('TranscriptReader', () => {
  it('read on after every append, says what one reading of the file so far says (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(appendsArb, async ({ bytes, cuts, max }) => {
        fs.writeFileSync(file, '');
        const reader = new TranscriptReader(file, { maxLineBytes: max });
        const seen: Frame[] = [];
        reader.onFrame((frame) => seen.push(frame));
        let written = 0;
        for (const cut of cuts) {
          fs.appendFileSync(file, bytes.subarray(written, cut));
          written = cut;
          const whole = wholeReading(bytes.subarray(0, cut), max);
          expect(await reader.readOn()).toEqual(whole.summary);
          // The listeners (the interactive tail) get each complete line's frame once, in order.
          expect(seen).toEqual(whole.committedFrames);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a new reader per append, from the cursor the last one left through JSON (the standalone hook), says the same (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(appendsArb, async ({ bytes, cuts, max }) => {
        fs.writeFileSync(file, '');
        let cursor: unknown;
        let written = 0;
        for (const cut of cuts) {
          fs.appendFileSync(file, bytes.subarray(written, cut));
          written = cut;
          const from = parseTranscriptCursor(cursor);
          if (cursor !== undefined) expect(from).toBeDefined();
          const reader = new TranscriptReader(file, { maxLineBytes: max, ...(from ? { from } : {}) });
          expect(await reader.readOn()).toEqual(wholeReading(bytes.subarray(0, cut), max).summary);
          cursor = JSON.parse(JSON.stringify(reader.cursor()));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads only the bytes appended since the last reading', async () => {
    const prompt = (n: number) => `${JSON.stringify(user(`task ${n} ${'y'.repeat(200)}`))}\n`;
    fs.writeFileSync(file, Array.from({ length: 2000 }, (_, i) => prompt(i)).join(''));
    const size = fs.statSync(file).size;
    const reader = new TranscriptReader(file);
    const read = await countBytesRead(file);
    expect((await reader.readOn()).userPrompts).toHaveLength(2000);
    expect(read.bytes()).toBeGreaterThanOrEqual(size);
    read.reset();
    fs.appendFileSync(file, prompt(2000));
    expect((await reader.readOn()).userPrompts.at(-1)).toMatch(/^task 2000 /);
    // The appended line, and the few bytes before the offset that prove the file is the same one.
    expect(read.bytes()).toBeLessThan(prompt(2000).length + 200);
    read.reset();
    await reader.readOn();
    expect(read.bytes()).toBeLessThan(200);
  });

  it('a cursor carries the reading into a new reader, which reads only what is new', async () => {
    fs.writeFileSync(file, `${JSON.stringify(user('first task'))}\n`.repeat(1000));
    const first = new TranscriptReader(file);
    await first.readOn();
    const cursor = parseTranscriptCursor(JSON.parse(JSON.stringify(first.cursor())));
    fs.appendFileSync(file, `${JSON.stringify(user('second task'))}\n`);
    const read = await countBytesRead(file);
    const next = new TranscriptReader(file, { from: cursor });
    const summary = await next.readOn();
    expect(summary.userPrompts).toHaveLength(1001);
    expect(summary.userPrompts.at(-1)).toBe('second task');
    expect(read.bytes()).toBeLessThan(200);
  });

  it.each([
    ['got shorter', () => fs.writeFileSync(file, `${JSON.stringify(user('new'))}\n`)],
    [
      'was replaced',
      () => {
        // Another file (a new inode) at the same path, longer than the offset.
        fs.writeFileSync(`${file}.new`, `${JSON.stringify(user('new'))}\n`.repeat(50));
        fs.renameSync(`${file}.new`, file);
      },
    ],
    [
      'was rewritten',
      () => {
        // The same file rewritten in place, as long as before and longer: only its bytes tell.
        const text = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(file, text.replaceAll('old', 'new') + text.replaceAll('old', 'new'));
      },
    ],
  ])('a transcript that %s is read from the start, with a warning', async (why, change) => {
    fs.writeFileSync(file, `${JSON.stringify(user('old'))}\n`.repeat(10));
    const warnings: string[] = [];
    const reader = new TranscriptReader(file, { logger: { warn: (m) => warnings.push(m) } });
    expect((await reader.readOn()).userPrompts).toHaveLength(10);
    change();
    const after = await reader.readOn();
    expect(after.userPrompts.every((p) => p === 'new')).toBe(true);
    expect(after).toEqual(wholeReading(fs.readFileSync(file), 16 * 1024 * 1024).summary);
    expect(warnings).toEqual([`The transcript ${why}; reading it again from the start`]);
  });

  it('a cursor of another file, or one that is not a cursor, is not used: the file is read from its start', async () => {
    fs.writeFileSync(file, `${JSON.stringify(user('task'))}\n`);
    const first = new TranscriptReader(file);
    await first.readOn();
    const other = path.join(dir, 'other.jsonl');
    fs.writeFileSync(other, `${JSON.stringify(user('other task'))}\n`);
    expect((await new TranscriptReader(other, { from: first.cursor() }).readOn()).userPrompts).toEqual(['other task']);
    const cursor = JSON.parse(JSON.stringify(first.cursor())) as Record<string, unknown>;
    for (const bad of [{ ...cursor, v: 2 }, { ...cursor, offset: -1 }, { ...cursor, summary: { ...(cursor.summary as object), frames: 'x' } }, null, 'x', []])
      expect(parseTranscriptCursor(bad)).toBeUndefined();
  });

  it('parseTranscriptCursor never throws, and what it accepts is a cursor (fuzz)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const cursor = parseTranscriptCursor(value);
        if (cursor) expect(cursor.v).toBe(1);
      }),
    );
  });

  it('rejects with ENOENT for a missing file, and reads it once it is there', async () => {
    const reader = new TranscriptReader(file);
    await expect(reader.readOn()).rejects.toMatchObject({ code: 'ENOENT' });
    fs.writeFileSync(file, `${JSON.stringify(user('late'))}\n`);
    expect((await reader.readOn()).userPrompts).toEqual(['late']);
  });

  it('readings asked for at once share the file: each byte is read once', async () => {
    fs.writeFileSync(file, `${JSON.stringify(user('task'))}\n`.repeat(5000));
    const reader = new TranscriptReader(file);
    const read = await countBytesRead(file);
    const summaries = await Promise.all([reader.readOn(), reader.readOn(), reader.readOn()]);
    expect(summaries.map((s) => s.userPrompts.length)).toEqual([5000, 5000, 5000]);
    expect(read.bytes()).toBeLessThan(fs.statSync(file).size + 1000);
  });
});
