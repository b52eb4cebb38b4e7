/**
 * The byte path's state as streams: a value that is there at any moment (the terminal's size,
 * the alternate screen) goes to a new subscriber at once, then each change.
 */
import { Observable } from '../rx.js';
import type { TerminalSize } from './byte-path.js';

/** `current()` on subscribe, then what `changes` emits, until it completes. */
export function withCurrent<T>(current: () => T, changes: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    subscriber.next(current());
    return changes.subscribe(subscriber);
  });
}

/** The terminal's size at each of its changes (not the current one: `size()` is there for that). */
export function resizes(terminal: { size(): TerminalSize; onResize(listener: () => void, signal: AbortSignal): void }): Observable<TerminalSize> {
  return new Observable<TerminalSize>((subscriber) => {
    const subscribed = new AbortController();
    terminal.onResize(() => subscriber.next(terminal.size()), subscribed.signal);
    return () => subscribed.abort();
  });
}
