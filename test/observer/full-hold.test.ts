/** Joiners past max_observers wait a second before they are answered, a bounded number at once. */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fullHold } from '../../src/observer/full-hold.js';

describe('fullHold', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers a held joiner after the hold, not before', () => {
    const waiting = fullHold({ holdMs: 1000, maxHeld: 2 });
    const then = vi.fn();
    expect(waiting.hold(new PassThrough(), then)).toBe('held');
    vi.advanceTimersByTime(999);
    expect(then).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(then).toHaveBeenCalledOnce();
  });

  it('forgets a joiner that hung up while it waited, and its place is free again', async () => {
    const waiting = fullHold({ holdMs: 1000, maxHeld: 1 });
    const gone = new PassThrough();
    const then = vi.fn();
    waiting.hold(gone, then);
    gone.destroy();
    await vi.waitFor(() => expect(gone.listenerCount('close')).toBe(0)); // its close was handled
    vi.advanceTimersByTime(1000);
    expect(then).not.toHaveBeenCalled();
    expect(waiting.hold(new PassThrough(), vi.fn())).toBe('held');
  });

  it('drops a joiner unanswered when maxHeld already wait', () => {
    const waiting = fullHold({ holdMs: 1000, maxHeld: 2 });
    waiting.hold(new PassThrough(), vi.fn());
    waiting.hold(new PassThrough(), vi.fn());
    const third = new PassThrough();
    const then = vi.fn();
    expect(waiting.hold(third, then)).toBe('dropped');
    expect(third.destroyed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(then).not.toHaveBeenCalled();
    // The first two were answered: there is room again.
    expect(waiting.hold(new PassThrough(), vi.fn())).toBe('held');
  });

  it('drops every waiting joiner when the server closes', () => {
    const waiting = fullHold({ holdMs: 1000, maxHeld: 4 });
    const sockets = [new PassThrough(), new PassThrough()];
    const then = vi.fn();
    for (const socket of sockets) waiting.hold(socket, then);
    waiting.dispose();
    expect(sockets.map((s) => s.destroyed)).toEqual([true, true]);
    vi.advanceTimersByTime(1000);
    expect(then).not.toHaveBeenCalled();
  });
});
