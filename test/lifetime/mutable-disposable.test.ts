/** A slot for one replaceable resource: replacing, clearing and ending dispose exactly what they drop. */
import { describe, expect, it, vi } from 'vitest';
import { toDisposable } from '../../src/lifetime/disposable-store.js';
import { MutableDisposable } from '../../src/lifetime/mutable-disposable.js';

describe('MutableDisposable', () => {
  it('disposes the value it replaces, not the new one', () => {
    const first = vi.fn();
    const second = vi.fn();
    const slot = new MutableDisposable();
    slot.value = toDisposable(first);
    slot.value = toDisposable(second);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
  });

  it('keeps a value set again as it is', () => {
    const release = vi.fn();
    const slot = new MutableDisposable();
    const item = toDisposable(release);
    slot.value = item;
    slot.value = item;
    expect(release).not.toHaveBeenCalled();
    expect(slot.value).toBe(item);
  });

  it('clear() disposes the value and holds nothing', () => {
    const release = vi.fn();
    const slot = new MutableDisposable();
    slot.value = toDisposable(release);
    slot.clear();
    expect(release).toHaveBeenCalledTimes(1);
    expect(slot.value).toBeUndefined();
  });

  it('disposes its value once and any value set after at once', () => {
    const held = vi.fn();
    const late = vi.fn();
    const slot = new MutableDisposable();
    slot.value = toDisposable(held);
    slot.dispose();
    slot.dispose();
    slot.value = toDisposable(late);
    expect(held).toHaveBeenCalledTimes(1);
    expect(late).toHaveBeenCalledTimes(1);
    expect(slot.value).toBeUndefined();
  });
});
