/** Both byte paths' streams come from one factory and complete in one place. */
import { describe, expect, it } from 'vitest';
import { Subject } from '../../src/rx.js';
import { bytePathStreams, completeStreams } from '../../src/pty/byte-path-streams.js';

describe('the byte path streams', () => {
  it('completing the streams completes every one of them', () => {
    const streams = bytePathStreams(Subject);
    const seen: string[] = [];
    for (const [name, stream] of Object.entries(streams) as [string, Subject<unknown>][]) stream.subscribe({ complete: () => seen.push(`${name} done`) });
    completeStreams(streams);
    expect(seen.sort()).toEqual(
      Object.keys(streams)
        .map((name) => `${name} done`)
        .sort(),
    );
  });
});
