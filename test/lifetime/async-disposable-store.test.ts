/** A run's lifetime tree: reverse order, each release awaited, failures that skip nothing, late joiners. */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AsyncDisposableStore } from '../../src/lifetime/async-disposable-store.js';

const recorder = () => {
  const released: string[] = [];
  const warned: unknown[] = [];
  const store = new AsyncDisposableStore({ onError: (error) => warned.push(error) });
  return { released, warned, store };
};

describe('AsyncDisposableStore', () => {
  it('releases newest first, for any number of releases', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 30 }), async (count) => {
        const { released, store } = recorder();
        const names = Array.from({ length: count }, (_, i) => `r${i}`);
        for (const name of names) store.add(() => released.push(name));
        await store.dispose();
        expect(released).toEqual(names.reverse());
      }),
    );
  });

  it('awaits each release before the next: an async release ends before the older one starts', async () => {
    const { released, store } = recorder();
    store.add(() => released.push('older'));
    store.add(async () => {
      released.push('newer started');
      await new Promise((resolve) => setImmediate(resolve));
      released.push('newer done');
    });
    await store.dispose();
    expect(released).toEqual(['newer started', 'newer done', 'older']);
  });

  it('a release that throws or rejects skips none of the others; each is warned of once and the first is kept', async () => {
    const { released, warned, store } = recorder();
    const first = new Error('first');
    const second = new Error('second');
    store.add(() => released.push('a'));
    store.add(async () => {
      throw second;
    });
    store.add(() => released.push('b'));
    store.add(() => {
      throw first;
    });
    store.add(() => released.push('c'));
    await expect(store.dispose()).rejects.toBe(first);
    expect(released).toEqual(['c', 'b', 'a']);
    expect(warned).toEqual([first, second]);
  });

  it('a warning that throws skips nothing either', async () => {
    const released: string[] = [];
    const store = new AsyncDisposableStore({
      onError: () => {
        throw new Error('cannot warn');
      },
    });
    store.add(() => released.push('a'));
    store.add(() => {
      throw new Error('x');
    });
    await expect(store.dispose()).rejects.toThrow('x');
    expect(released).toEqual(['a']);
  });

  it('disposes once: a second dispose releases nothing again and settles as the first', async () => {
    const release = vi.fn();
    const { store } = recorder();
    store.add(release);
    const one = store.dispose();
    expect(store.dispose()).toBe(one);
    await one;
    expect(release).toHaveBeenCalledTimes(1);
    expect(store.isDisposed).toBe(true);
  });

  it('a release that joins after disposal runs at once, and its failure is warned of', async () => {
    const { released, warned, store } = recorder();
    await store.dispose();
    store.add(() => released.push('late'));
    expect(released).toEqual(['late']);
    const late = new Error('late failure');
    store.add(async () => {
      throw late;
    });
    await vi.waitFor(() => expect(warned).toEqual([late]));
  });

  it("using: releases on every path; the body's error wins over a release's, which is still warned of", async () => {
    const { released, warned, store } = recorder();
    const release = new Error('release');
    store.add(() => released.push('a'));
    store.add(() => {
      throw release;
    });
    const body = new Error('body');
    await expect(
      store.using(async () => {
        throw body;
      }),
    ).rejects.toBe(body);
    expect(released).toEqual(['a']);
    expect(warned).toEqual([release]);
  });

  it("using: a body that succeeds gets the first release's failure thrown, its value otherwise", async () => {
    const ok = recorder();
    ok.store.add(() => ok.released.push('a'));
    await expect(ok.store.using(async () => 7)).resolves.toBe(7);
    expect(ok.released).toEqual(['a']);

    const failing = recorder();
    const release = new Error('release');
    failing.store.add(() => {
      throw release;
    });
    await expect(failing.store.using(async () => 7)).rejects.toBe(release);
  });
});
