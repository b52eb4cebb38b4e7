/**
 * Whether the output source copies output for observers (the native relay's tee): on at the first
 * observer, off a little after the last (`UNWATCH_GRACE_MS`), off at once after a gap (the next
 * joiner needs a fresh tail, without the hole). Owns its grace timer; `dispose()` at the hub's end
 * stops every further switch.
 */
import { DisposableStore, timeout, type Disposable } from '../lifetime/disposable-store.js';

/**
 * Every start of the source's copy sends its whole tail (the relay's: 1 MiB); observers connecting
 * and dropping around zero (a burst of connections that died while their upgrade waited)
 * restarted it many times a second, and the relay queued one whole tail per start for a ccc busy
 * with the sockets (see bench/RESULTS.md, "Observer output copy: restarts under churn").
 */
const UNWATCH_GRACE_MS = 1000;

/**
 * Where the output comes from, when it can stop copying it while nobody watches (the native
 * relay): on at the first observer, off after the last; `watch(true)` resolves once the tail it
 * kept meanwhile was handed to `replaceTail`, so a joiner's snapshot shows the current screen.
 */
export interface OutputSource {
  watch(on: boolean): Promise<void>;
}

export class OutputWatch implements Disposable {
  readonly #store = new DisposableStore();
  #source: OutputSource | undefined;
  /** Set while the source copies: resolves once its tail has arrived. */
  #watching: Promise<void> | undefined;
  #grace: Disposable | undefined;
  #decided!: () => void;
  /** Joiners wait for this before their snapshot: the source is known (or there is none). */
  readonly sourceKnown: Promise<void>;

  constructor(awaitSource: boolean) {
    this.sourceKnown = awaitSource ? new Promise<void>((resolve) => (this.#decided = resolve)) : Promise.resolve();
  }

  /** Resolves once the copy's tail arrived; undefined while the source does not copy. */
  get watching(): Promise<void> | undefined {
    return this.#watching;
  }

  setSource(source: OutputSource | undefined, observers: number): void {
    this.#source = source;
    this.update(observers);
    this.#decided?.();
  }

  /** `observers` watch now; `now`: with none, stop the copy without the grace (after a gap). */
  update(observers: number, now = false): void {
    if (!this.#source || this.#store.isDisposed) return;
    if (observers > 0) {
      this.#cancelGrace();
      this.#watching ??= this.#source.watch(true);
    } else if (this.#watching && now) this.#unwatch();
    else if (this.#watching && !this.#grace) this.#grace = this.#store.add(timeout(() => this.#unwatch(), UNWATCH_GRACE_MS, { unref: true }));
  }

  dispose(): void {
    this.#store.dispose();
  }

  #cancelGrace(): void {
    if (this.#grace) this.#store.delete(this.#grace);
    this.#grace = undefined;
  }

  #unwatch(): void {
    this.#cancelGrace();
    if (!this.#source || this.#store.isDisposed || !this.#watching) return;
    this.#watching = undefined;
    void this.#source.watch(false);
  }
}
