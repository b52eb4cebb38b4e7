/**
 * The interactive stop path's pipe (src/loop/interactive-stops.ts) with a decide function at its
 * interface: one review at a time, each stop answered by its own verdict, a review that throws
 * fails only its own stop, and closing waits for the review that runs.
 */
import { describe, expect, it } from 'vitest';
import { stopPipe, type Stop } from '../../src/loop/interactive-stops.js';

/** A decide function whose reviews the test finishes by hand, in the order it chooses. */
function heldReviews() {
  const running: Array<{ stop: Stop; finish(output: string): void; fail(error: Error): void }> = [];
  const decide = (stop: Stop) =>
    new Promise<string>((finish, fail) => {
      running.push({ stop, finish, fail });
    });
  return { decide, running };
}

const hook = () => new AbortController().signal;

describe('the stop pipe', () => {
  it('reviews one stop at a time and answers each stop with its own verdict', async () => {
    const { decide, running } = heldReviews();
    const pipe = stopPipe(decide);
    const first = pipe.answer('first', hook());
    const second = pipe.answer('second', hook());
    await expect.poll(() => running.length).toBe(1);
    expect(running[0]!.stop.input).toBe('first');
    running[0]!.finish('verdict of first');
    await expect(first).resolves.toBe('verdict of first');
    await expect.poll(() => running.length).toBe(2);
    expect(running[1]!.stop.input).toBe('second');
    running[1]!.finish('verdict of second');
    await expect(second).resolves.toBe('verdict of second');
  });

  it('fails only the stop whose review threw; the next one is still reviewed', async () => {
    const { decide, running } = heldReviews();
    const pipe = stopPipe(decide);
    const first = pipe.answer('first', hook());
    const second = pipe.answer('second', hook());
    await expect.poll(() => running.length).toBe(1);
    running[0]!.fail(new Error('the review broke'));
    await expect(first).rejects.toThrow('the review broke');
    await expect.poll(() => running.length).toBe(2);
    running[1]!.finish('allowed');
    await expect(second).resolves.toBe('allowed');
  });

  it('passes each stop its own hook signal', async () => {
    const { decide, running } = heldReviews();
    const pipe = stopPipe(decide);
    const gone = new AbortController();
    const answer = pipe.answer('input', gone.signal);
    await expect.poll(() => running.length).toBe(1);
    expect(running[0]!.stop.hookGone).toBe(gone.signal);
    running[0]!.finish('');
    await answer;
  });

  it('closes once the running review has settled, and refuses stops after that', async () => {
    const { decide, running } = heldReviews();
    const pipe = stopPipe(decide);
    const answer = pipe.answer('last', hook());
    await expect.poll(() => running.length).toBe(1);
    let closed = false;
    const closing = pipe.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    running[0]!.finish('done');
    await closing;
    await expect(answer).resolves.toBe('done');
    await expect(pipe.answer('too late', hook())).rejects.toThrow('the session ended before this stop was decided');
  });
});
