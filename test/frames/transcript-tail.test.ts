/**
 * Following a transcript while Claude Code writes it: the file may not exist yet, lines arrive in
 * pieces, only new bytes are read, and aborting ends the stream.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstValueFrom, take, toArray, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { tailTranscript } from '../../src/frames/transcript-tail.js';
import { TranscriptReader } from '../../src/frames/transcript-reader.js';

let dir: string;
let file: string;
const controllers: AbortController[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-tail-'));
  file = path.join(dir, 'projects', 'p', 'session.jsonl');
});
afterEach(() => {
  vi.restoreAllMocks();
  controllers.forEach((c) => c.abort());
  fs.rmSync(dir, { recursive: true, force: true });
});

function tail(options: { pollMs?: number; logger?: { warn: (m: string, f?: Record<string, unknown>) => void } } = {}) {
  const controller = new AbortController();
  controllers.push(controller);
  const { logger, ...follow } = options;
  return { frames$: tailTranscript(new TranscriptReader(file, { logger }), controller.signal, { pollMs: 50, ...follow }), controller };
}

/** Resolves with the next `n` frames; subscribes now. */
function next(frames$: Observable<Frame>, n: number): Promise<Frame[]> {
  return firstValueFrom(frames$.pipe(take(n), toArray()));
}

/** Subscribes now; `until(type)` resolves once a frame of that type has arrived. */
function record(frames$: Observable<Frame>) {
  const types: string[] = [];
  const waiters: Array<{ type: string; resolve: () => void }> = [];
  let complete!: () => void;
  const completed = new Promise<void>((resolve) => (complete = resolve));
  frames$.subscribe({
    next: (frame) => {
      types.push(frame.type);
      waiters.filter((w) => w.type === frame.type).forEach((w) => w.resolve());
    },
    complete: () => complete(),
  });
  return {
    types,
    completed,
    until: (type: string) => (types.includes(type) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ type, resolve }))),
  };
}

const line = (type: string, extra: Record<string, unknown> = {}) => `${JSON.stringify({ type, ...extra })}\n`;

describe('tailTranscript', () => {
  it('waits for a file that does not exist yet, then follows it as lines arrive in pieces', async () => {
    // Counts the follower's attempts to open the file that found nothing there.
    let missing = 0;
    const open = fs.promises.open;
    vi.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
      try {
        return await open(...args);
      } catch (error) {
        if (args[0] === file && (error as NodeJS.ErrnoException).code === 'ENOENT') missing += 1;
        throw error;
      }
    });
    const { frames$ } = tail();
    const seen = record(frames$);
    await vi.waitFor(() => expect(missing).toBeGreaterThanOrEqual(3), { timeout: 10_000 }); // a few polls found nothing
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${line('one')}{"type":"tw`);
    await seen.until('one'); // the write was read, the half line with it
    fs.appendFileSync(file, `o"}\n${line('three')}`);
    await seen.until('three');
    expect(seen.types).toEqual(['one', 'two', 'three']);
  });

  it('reads each byte once: frames appended later come after, without repeats', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line('a') + line('b'));
    const { frames$ } = tail();
    const seen = record(frames$);
    await seen.until('b');
    fs.appendFileSync(file, line('c'));
    await seen.until('c');
    fs.appendFileSync(file, line('d'));
    await seen.until('d');
    expect(seen.types).toEqual(['a', 'b', 'c', 'd']);
  });

  it('notices appends through fs.watch, without waiting for a poll', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line('first'));
    const { frames$ } = tail({ pollMs: 3_600_000 });
    const seen = record(frames$);
    await seen.until('first');
    fs.appendFileSync(file, line('second'));
    await seen.until('second');
    expect(seen.types).toEqual(['first', 'second']);
  });

  it('warns about bad lines and keeps following', async () => {
    const warnings: string[] = [];
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `not json\n${line('ok')}`);
    const { frames$ } = tail({ logger: { warn: (m) => warnings.push(m) } });
    expect((await next(frames$, 1))[0]!.type).toBe('ok');
    expect(warnings).toEqual(['Skipped a transcript line: not a JSON object']);
  });

  it('starts again from the top when the file is truncated', async () => {
    const warnings: string[] = [];
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line('old-1') + line('old-2'));
    const { frames$ } = tail({ logger: { warn: (m) => warnings.push(m) } });
    const seen = record(frames$);
    await seen.until('old-2');
    fs.writeFileSync(file, line('new'));
    await seen.until('new');
    expect(seen.types).toEqual(['old-1', 'old-2', 'new']);
    expect(warnings).toContain('The transcript got shorter; reading it again from the start');
  });

  it('completes when the signal aborts, dropping an unfinished last line', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${line('only')}{"type":"half`);
    const { frames$, controller } = tail();
    const seen = record(frames$);
    await seen.until('only');
    controller.abort();
    await seen.completed;
    expect(seen.types).toEqual(['only']);
  });

  it('completes at once for an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await firstValueFrom(tailTranscript(new TranscriptReader(file), controller.signal).pipe(toArray()))).toEqual([]);
  });
});
