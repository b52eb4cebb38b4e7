/**
 * One lifetime mechanism for objects that hold resources (listeners, timers, child processes,
 * subscriptions, sockets): each resource is added to a `DisposableStore` as it is acquired, and one
 * `dispose()` releases them all, newest first, the order a hand-written `finally` would use. Modelled
 * on xterm.js's `DisposableStore` (src/common/Lifecycle.ts) and VS Code's `Disposable`.
 *
 * Rules: `dispose()` runs once (later calls do nothing); a disposer that throws does not skip the
 * ones after it, and what was thrown is reported once all have run; a resource added after the
 * store was disposed is disposed at once, so a late acquisition (a callback that fires after the
 * owner ended) cannot leak.
 */

export interface Disposable {
  dispose(): void;
}

/** A disposable that runs `release` once, however often it is disposed. */
export function toDisposable(release: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      release();
    },
  };
}

export interface DisposableStoreOptions {
  /**
   * Where the errors of disposers go. Without it `dispose()` throws once every disposer ran: the
   * one error, or an `AggregateError` of them all.
   */
  onError?: (error: unknown) => void;
}

export class DisposableStore implements Disposable {
  readonly #items: Disposable[] = [];
  readonly #onError: ((error: unknown) => void) | undefined;
  #disposed = false;

  constructor(options: DisposableStoreOptions = {}) {
    this.#onError = options.onError;
  }

  get isDisposed(): boolean {
    return this.#disposed;
  }

  /** Owns `item` from now on; returns it. After `dispose()`, disposes it at once. */
  add<T extends Disposable>(item: T): T {
    if (this.#disposed) this.#release([item]);
    else this.#items.push(item);
    return item;
  }

  /** Owns a release function (a listener's removal, a timer's clear). */
  defer(release: () => void): Disposable {
    return this.add(toDisposable(release));
  }

  /** Disposes `item` now and forgets it (a child replaced before its owner ends). */
  delete(item: Disposable): void {
    const at = this.#items.indexOf(item);
    if (at < 0) return;
    this.#items.splice(at, 1);
    this.#release([item]);
  }

  /** Releases everything added, newest first; only the first call does anything. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#release(this.#items.splice(0).reverse());
  }

  #release(items: Disposable[]): void {
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 0) return;
    if (this.#onError) for (const error of errors) this.#onError(error);
    else throw errors.length === 1 ? errors[0] : new AggregateError(errors, `${errors.length} disposers failed`);
  }
}

/** Runs `listener` on `emitter`'s `event` until disposed. */
export function listen<A extends unknown[]>(emitter: NodeJS.EventEmitter, event: string, listener: (...args: A) => void): Disposable {
  emitter.on(event, listener as (...args: unknown[]) => void);
  return toDisposable(() => void emitter.off(event, listener as (...args: unknown[]) => void));
}

export interface TimerOptions {
  /** The pending timer alone does not keep the process up. */
  unref?: boolean;
}

/** A timer cleared when disposed. */
export function timeout(callback: () => void, ms: number, options: TimerOptions = {}): Disposable {
  const timer = setTimeout(callback, ms);
  if (options.unref) timer.unref();
  return toDisposable(() => clearTimeout(timer));
}

/** A repeating timer cleared when disposed. */
export function interval(callback: () => void, ms: number, options: TimerOptions = {}): Disposable {
  const timer = setInterval(callback, ms);
  if (options.unref) timer.unref();
  return toDisposable(() => clearInterval(timer));
}

/** An `AbortSignal` aborted when the store it is added to is disposed: for APIs that take a signal. */
export function abortOnDispose(): Disposable & { readonly signal: AbortSignal } {
  const controller = new AbortController();
  return { signal: controller.signal, dispose: () => controller.abort() };
}
