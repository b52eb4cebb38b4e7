/**
 * A slot that holds at most one disposable at a time: setting a new value disposes the one it
 * replaces, `clear()` disposes the current one, and once the slot itself is disposed anything set
 * into it is disposed at once. For a resource that is replaced over an owner's life (the next
 * health check's timer, the pending restart, the current Worker's monitor) and must still end with
 * the owner. Modelled on xterm.js's `MutableDisposable` (src/common/Lifecycle.ts).
 */
import type { Disposable } from './disposable-store.js';

export class MutableDisposable<T extends Disposable = Disposable> implements Disposable {
  #value: T | undefined;
  #disposed = false;

  get isDisposed(): boolean {
    return this.#disposed;
  }

  get value(): T | undefined {
    return this.#value;
  }

  /** Holds `value` from now on, disposing the one it replaces (unless it is the same). */
  set value(value: T | undefined) {
    if (this.#disposed) {
      value?.dispose();
      return;
    }
    if (value === this.#value) return;
    const previous = this.#value;
    this.#value = value;
    previous?.dispose();
  }

  /** Disposes the current value, if any, and holds nothing. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    const previous = this.#value;
    this.#value = undefined;
    previous?.dispose();
  }
}
