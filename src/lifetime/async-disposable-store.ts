/**
 * A run's lifetime tree: every resource joins the store as it is acquired (a claim, a stop channel,
 * a record on disk, a subscription, a session) with the release it needs, sync or async, and one
 * `dispose()` releases them newest first, each awaited before the next: the order a hand-written
 * `finally` would use, kept by construction instead of by hand. The async sibling of
 * `DisposableStore` (disposable-store.ts), for teardowns that close files and sockets.
 *
 * Rules: `dispose()` runs once (later calls get the same promise); a release that throws or rejects
 * does not skip the ones after it, each failure is told to `onError` once, and the first one is kept
 * (`dispose()` rejects with it once all have run; `using` hands it on only when the body succeeded).
 * A resource that joins after the store was disposed is released at once, so a late acquisition (a
 * callback that fires after the run ended) cannot leak.
 */

/** A release: what undoes one acquisition. */
export type Release = () => unknown;

export interface AsyncDisposableStoreOptions {
  /** Told each release that failed, once (the run warns: no failure is silent). */
  onError: (error: unknown) => void;
}

export class AsyncDisposableStore {
  readonly #releases: Release[] = [];
  readonly #onError: (error: unknown) => void;
  #disposed: Promise<void> | undefined;

  constructor(options: AsyncDisposableStoreOptions) {
    this.#onError = options.onError;
  }

  get isDisposed(): boolean {
    return this.#disposed !== undefined;
  }

  /** Owns `release` from now on. After `dispose()`, runs it at once (its failure is told to `onError`). */
  add(release: Release): void {
    if (this.#disposed) void this.#run(release);
    else this.#releases.push(release);
  }

  /** Releases everything added, newest first, each awaited; rejects with the first failure once all have run. */
  dispose(): Promise<void> {
    return (this.#disposed ??= this.#releaseAll());
  }

  /**
   * Runs `body`, then disposes the store on every path. The body's error wins (the releases' were
   * told to `onError`); when the body succeeded, the first release that failed is thrown.
   */
  async using<T>(body: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await body();
    } catch (error) {
      await this.dispose().catch(() => {});
      throw error;
    }
    await this.dispose();
    return result;
  }

  async #releaseAll(): Promise<void> {
    let first: { error: unknown } | undefined;
    for (const release of this.#releases.splice(0).reverse()) {
      const failed = await this.#run(release);
      first ??= failed;
    }
    if (first) throw first.error;
  }

  /** One release; its failure told to `onError` and returned. */
  async #run(release: Release): Promise<{ error: unknown } | undefined> {
    try {
      await release();
      return undefined;
    } catch (error) {
      try {
        this.#onError(error);
      } catch {
        // A warning that cannot be said must not skip the releases after it.
      }
      return { error };
    }
  }
}
