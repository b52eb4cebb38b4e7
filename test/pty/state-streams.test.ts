/**
 * The byte path's state as streams (src/pty/state-streams.ts): a new subscriber gets the state at
 * once, then each change; a terminal's resize listener lives exactly as long as a subscription.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Subject } from '../../src/rx.js';
import { resizes, withCurrent } from '../../src/pty/state-streams.js';

describe('the byte path state streams', () => {
  it('give a late subscriber the current state, then each change, and complete with the changes', () => {
    let current = false;
    const changes = new Subject<boolean>();
    const state$ = withCurrent(() => current, changes);
    current = true; // changed before anyone subscribed
    const seen: boolean[] = [];
    let completed = false;
    state$.subscribe({ next: (v) => seen.push(v), complete: () => (completed = true) });
    current = false;
    changes.next(false);
    changes.complete();
    expect(seen).toEqual([true, false]);
    expect(completed).toBe(true);
  });

  it('listen for resizes only while subscribed, with the size at each change', () => {
    const emitter = new EventEmitter();
    let size = { cols: 80, rows: 24 };
    const terminal = {
      size: () => size,
      onResize: (listener: () => void, signal: AbortSignal) => {
        emitter.on('resize', listener);
        signal.addEventListener('abort', () => emitter.off('resize', listener));
      },
    };
    const seen: Array<{ cols: number; rows: number }> = [];
    const subscription = resizes(terminal).subscribe((s) => seen.push(s));
    expect(emitter.listenerCount('resize')).toBe(1);
    size = { cols: 100, rows: 30 };
    emitter.emit('resize');
    subscription.unsubscribe();
    expect(emitter.listenerCount('resize')).toBe(0);
    emitter.emit('resize');
    expect(seen).toEqual([{ cols: 100, rows: 30 }]);
  });
});
