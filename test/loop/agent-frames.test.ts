import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { agentFrames } from '../../src/loop/agent-frames.js';

const frame = (n: number): Frame => ({ type: 'assistant', n });

describe('the agent frames of the current session', () => {
  function setup(size = 3) {
    const ids = new Subject<string>();
    const tails = new Map<string, Subject<Frame>>();
    const opened: string[] = [];
    const graph = agentFrames(
      ids,
      (id) => {
        opened.push(id);
        const tail = new Subject<Frame>();
        tails.set(id, tail);
        return tail;
      },
      size,
    );
    const seen: unknown[] = [];
    const sub = graph.frames$.subscribe((f) => seen.push(f.n));
    return { ids, tails, opened, graph, seen, sub };
  }

  it('tails the transcript of each new session id, once per id, and switches when the id changes (/clear)', async () => {
    const { ids, tails, opened, graph, seen } = setup();
    ids.next('a');
    ids.next('a');
    tails.get('a')!.next(frame(1));
    tails.get('a')!.next(frame(2));
    ids.next('b');
    tails.get('a')!.next(frame(99)); // the old tail was let go
    tails.get('b')!.next(frame(3));
    expect(opened).toEqual(['a', 'b']);
    expect(seen).toEqual([1, 2, 3]);
    expect((await graph.recent('b', 1)).map((f) => f.n)).toEqual([3]);
    expect(await graph.recent('a', 0, 10)).toEqual([]);
  });

  it('keeps the last frames only, and hands out a copy that does not move', async () => {
    const { ids, tails, graph } = setup(3);
    ids.next('a');
    for (let i = 1; i <= 5; i++) tails.get('a')!.next(frame(i));
    const got = await graph.recent('a', 5);
    expect(got.map((f) => f.n)).toEqual([3, 4, 5]);
    tails.get('a')!.next(frame(6));
    expect(got.map((f) => f.n)).toEqual([3, 4, 5]);
  });

  it('waits until the window has seen as many frames as the transcript held at the stop', async () => {
    const { ids, tails, graph } = setup();
    ids.next('a');
    const pending = graph.recent('a', 2, 10_000);
    tails.get('a')!.next(frame(1));
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    tails.get('a')!.next(frame(2));
    expect((await pending).map((f) => f.n)).toEqual([1, 2]);
  });

  it('gives what it has when the tail falls short within the wait', async () => {
    const { ids, tails, graph } = setup();
    ids.next('a');
    tails.get('a')!.next(frame(1));
    expect((await graph.recent('a', 10, 20)).map((f) => f.n)).toEqual([1]);
    expect(await graph.recent('never-seen', 1, 20)).toEqual([]);
  });
});
