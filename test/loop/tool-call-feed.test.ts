/**
 * The pace of `tools` events: a call after a quiet interval goes out at once, the calls of the
 * next interval together at its end, at most TOOL_CALLS_LISTED named in one; a flush sends what
 * is gathered before the turn's review.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SupervisorEvent } from '../../src/loop/events.js';
import { TOOL_CALLS_LISTED, ToolCallFeed } from '../../src/loop/tool-call-feed.js';

const call = (n: number) => ({ name: 'Read', input: `f${n}.ts` });
type Tools = Extract<SupervisorEvent, { kind: 'tools' }>;

describe('ToolCallFeed', () => {
  let events: Tools[];
  let feed: ToolCallFeed;
  beforeEach(() => {
    vi.useFakeTimers();
    events = [];
    feed = new ToolCallFeed((e) => events.push(e as Tools), 1000);
  });
  afterEach(() => {
    feed.flush();
    vi.useRealTimers();
  });

  it('sends the first call at once and the calls of the next second together at its end', () => {
    feed.add([call(1)]);
    expect(events.map((e) => e.calls)).toEqual([[call(1)]]);
    feed.add([call(2)]);
    feed.add([call(3)]);
    expect(events).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(events.map((e) => e.calls)).toEqual([[call(1)], [call(2), call(3)]]);
    // A quiet interval ends the pacing: the next call goes out at once again.
    vi.advanceTimersByTime(1000);
    feed.add([call(4)]);
    expect(events.at(-1)!.calls).toEqual([call(4)]);
    expect(events.every((e) => e.kind === 'tools' && e.more === 0)).toBe(true);
  });

  it('a flood makes one event a second, each naming at most TOOL_CALLS_LISTED calls and counting the rest', () => {
    for (let second = 0; second < 10; second++) {
      for (let i = 0; i < 1000; i++) feed.add([call(i)]);
      vi.advanceTimersByTime(1000);
    }
    expect(events).toHaveLength(11); // the first call at once, then one event at the end of each second
    expect(events.every((e) => e.calls.length <= TOOL_CALLS_LISTED)).toBe(true);
    expect(events.reduce((sum, e) => sum + e.calls.length + e.more, 0)).toBe(10_000);
  });

  it('flush sends what is gathered at once, and the next call goes out at once', () => {
    feed.add([call(1), call(2)]);
    feed.add([call(3)]);
    feed.flush();
    expect(events.map((e) => e.calls)).toEqual([[call(1), call(2)], [call(3)]]);
    feed.flush();
    feed.add([call(4)]);
    expect(events).toHaveLength(3);
    vi.advanceTimersByTime(5000);
    expect(events).toHaveLength(3);
  });
});
