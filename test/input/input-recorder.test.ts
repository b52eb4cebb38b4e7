/**
 * The input log is complete, or says where and how much was cut: a pasted megabyte is recorded
 * whole (before the session is known and after), and past the memory bound the cut is marked in
 * place, with the number of bytes missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutMarker, InputRecorder } from '../../src/input/input-recorder.js';

describe('the input recorder', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-input-'));
    file = path.join(dir, 'input.log');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A 1 MiB paste as the terminal sends it (bracketed), in the relay's 4 KiB batches. */
  const paste = Buffer.concat([Buffer.from('\x1b[200~'), Buffer.alloc(1024 * 1024, 'p'), Buffer.from('\x1b[201~')]);
  const batches = (bytes: Buffer) => Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096));

  it('records a 1 MiB paste whole, typed before the session was known and after', async () => {
    const recorder = new InputRecorder();
    recorder.record(Buffer.from('before '));
    for (const batch of batches(paste)) recorder.record(batch);
    recorder.bind(file);
    for (const batch of batches(paste)) recorder.record(batch);
    await recorder.flush();
    const expected = Buffer.concat([Buffer.from('before '), paste, paste]);
    const got = fs.readFileSync(file);
    expect(got.length).toBe(expected.length);
    expect(got.equals(expected)).toBe(true);
  });

  it('marks in place how many bytes it could not keep while the session was not known', async () => {
    const recorder = new InputRecorder({ maxWaitingBytes: 10 });
    for (const chunk of ['abcdefgh', 'ijkl', 'mn']) recorder.record(Buffer.from(chunk));
    recorder.bind(file);
    await recorder.flush();
    recorder.record(Buffer.from('op'));
    await recorder.flush();
    expect(fs.readFileSync(file, 'utf8')).toBe(`abcdefgh${cutMarker(4, 10)}mnop`);
  });

  it('marks in place what it could not keep while the disk took nothing, and goes on after', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const written: Buffer[] = [];
    const recorder = new InputRecorder({
      maxWaitingBytes: 8,
      append: async (_file, data) => {
        if (written.length === 0) await stalled;
        written.push(data);
      },
    });
    recorder.bind(file);
    recorder.record(Buffer.from('12345678'));
    const first = recorder.flush();
    recorder.record(Buffer.from('lost')); // 8 bytes are still on their way to the disk
    release();
    await first;
    recorder.record(Buffer.from('after'));
    await recorder.flush();
    expect(Buffer.concat(written).toString()).toBe(`12345678${cutMarker(4, 8)}after`);
  });

  it('accounts for every typed byte: recorded, or counted in a marker at the place it was cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 30 }),
        async (chunks, bound, bindAt) => {
          const written: Buffer[] = [];
          const recorder = new InputRecorder({ maxWaitingBytes: bound, append: async (_f, data) => void written.push(data) });
          const expected: Buffer[] = [];
          let waiting = 0;
          let cut = 0;
          chunks.forEach((chunk, i) => {
            if (i === bindAt) recorder.bind(file);
            recorder.record(Buffer.from(chunk));
            if (i < bindAt && waiting + chunk.length > bound) cut += chunk.length;
            else if (i < bindAt) {
              if (cut) expected.push(Buffer.from(cutMarker(cut, bound)));
              waiting += chunk.length + (cut ? cutMarker(cut, bound).length : 0);
              cut = 0;
              expected.push(Buffer.from(chunk));
            }
          });
          if (bindAt >= chunks.length) recorder.bind(file);
          await recorder.flush();
          const log = Buffer.concat(written).toString('latin1');
          const typed = Buffer.concat(chunks.map((c) => Buffer.from(c))).length;
          const markers = [...log.matchAll(/\n\[ccc: (\d+) bytes of typed input not recorded here: [^\]]*\]\n/g)];
          const missing = markers.reduce((sum, m) => sum + Number(m[1]), 0);
          const recorded = log.length - markers.reduce((sum, m) => sum + m[0].length, 0);
          expect(recorded + missing).toBe(typed);
          // What was held before the session was known comes first, in order.
          expect(log.startsWith(Buffer.concat(expected).toString('latin1'))).toBe(true);
        },
      ),
    );
  });
});
