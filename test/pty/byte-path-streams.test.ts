/** Both byte paths' streams come from one factory: `typed$` is `stdin$` without the replies, derived once, completed with it. */
import { describe, expect, it } from 'vitest';
import { Subject } from '../../src/rx.js';
import { bytePathStreams, completeStreams } from '../../src/pty/byte-path-streams.js';

describe('the byte path streams', () => {
  it('typed$ holds the state across reads: a reply split over batches of stdin$ is no typing, keys around it are', () => {
    const streams = bytePathStreams(Subject);
    const typed: string[] = [];
    streams.typed$.subscribe((bytes) => typed.push(bytes.toString()));
    for (const batch of ['a\x1b[12;', '40R', '\x1b]11;rgb:1e1e/', '1e1e/1e1e\x07', '\x1b[', 'I', 'b']) streams.stdin$.next(Buffer.from(batch));
    expect(typed).toEqual(['a', 'b']);
  });

  it('completing the streams completes every one of them, typed$ after what it held', () => {
    const streams = bytePathStreams(Subject);
    const seen: string[] = [];
    for (const [name, stream] of Object.entries(streams) as [string, Subject<unknown>][])
      stream.subscribe({ next: (v) => seen.push(`${name}:${String(v)}`), complete: () => seen.push(`${name} done`) });
    streams.stdin$.next(Buffer.from('\x1b'));
    completeStreams(streams);
    expect(seen).toContain('typed$:\x1b');
    expect(seen.indexOf('typed$:\x1b')).toBeLessThan(seen.indexOf('typed$ done'));
    expect(seen.filter((s) => s.endsWith(' done')).sort()).toEqual(
      Object.keys(streams)
        .map((name) => `${name} done`)
        .sort(),
    );
  });
});
