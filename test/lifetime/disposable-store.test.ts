/** The one lifetime mechanism: order, once, errors that skip nothing, late additions. */
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { abortOnDispose, DisposableStore, interval, listen, timeout, toDisposable } from '../../src/lifetime/disposable-store.js';

const recorder = () => {
  const released: string[] = [];
  const item = (name: string) => toDisposable(() => released.push(name));
  return { released, item };
};

describe('DisposableStore', () => {
  it('disposes what it holds newest first, for any number of items', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), (count) => {
        const { released, item } = recorder();
        const store = new DisposableStore();
        const names = Array.from({ length: count }, (_, i) => `r${i}`);
        for (const name of names) store.add(item(name));
        store.dispose();
        expect(released).toEqual(names.reverse());
      }),
    );
  });

  it('disposes once: a second dispose releases nothing again', () => {
    const release = vi.fn();
    const store = new DisposableStore();
    store.add({ dispose: release });
    store.dispose();
    store.dispose();
    expect(release).toHaveBeenCalledTimes(1);
    expect(store.isDisposed).toBe(true);
  });

  it('runs every disposer when some throw, then throws what they threw', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.add(item('first'));
    store.defer(() => {
      throw new Error('second failed');
    });
    store.add(item('third'));
    expect(() => store.dispose()).toThrow('second failed');
    expect(released).toEqual(['third', 'first']);
  });

  it('throws an AggregateError holding every error when several disposers fail', () => {
    const store = new DisposableStore();
    store.defer(() => {
      throw new Error('a');
    });
    store.defer(() => {
      throw new Error('b');
    });
    try {
      store.dispose();
      expect.unreachable('dispose should throw');
    } catch (error) {
      expect(error).toBeInstanceOf(AggregateError);
      expect((error as AggregateError).errors.map((e: Error) => e.message)).toEqual(['b', 'a']);
    }
  });

  it('reports errors to onError, when given, instead of throwing', () => {
    const errors: unknown[] = [];
    const { released, item } = recorder();
    const store = new DisposableStore({ onError: (e) => errors.push(e) });
    store.add(item('kept going'));
    store.defer(() => {
      throw new Error('broken');
    });
    expect(() => store.dispose()).not.toThrow();
    expect(errors).toEqual([new Error('broken')]);
    expect(released).toEqual(['kept going']);
  });

  it('disposes an item added after dispose at once, and still returns it', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.dispose();
    const late = item('late');
    expect(store.add(late)).toBe(late);
    expect(released).toEqual(['late']);
  });

  it('delete disposes one item now and not again at the end', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    const a = store.add(item('a'));
    store.add(item('b'));
    store.delete(a);
    expect(released).toEqual(['a']);
    store.dispose();
    expect(released).toEqual(['a', 'b']);
  });

  it('an item added while the store disposes is disposed too', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.defer(() => store.add(item('added during dispose')));
    store.dispose();
    expect(released).toEqual(['added during dispose']);
  });
});

describe('resource helpers', () => {
  it('listen removes its listener when disposed', () => {
    const emitter = new EventEmitter();
    const heard: number[] = [];
    const listening = listen(emitter, 'n', (n: number) => heard.push(n));
    emitter.emit('n', 1);
    listening.dispose();
    emitter.emit('n', 2);
    expect(heard).toEqual([1]);
    expect(emitter.listenerCount('n')).toBe(0);
  });

  it('timeout and interval never fire once disposed', () => {
    vi.useFakeTimers();
    try {
      const fired = vi.fn();
      const store = new DisposableStore();
      store.add(timeout(fired, 10));
      store.add(interval(fired, 5));
      store.dispose();
      vi.advanceTimersByTime(100);
      expect(fired).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('abortOnDispose aborts its signal when the store is disposed', () => {
    const store = new DisposableStore();
    const { signal } = store.add(abortOnDispose());
    expect(signal.aborted).toBe(false);
    store.dispose();
    expect(signal.aborted).toBe(true);
  });
});
