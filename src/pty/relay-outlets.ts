/**
 * The relay's streams on ccc's side. RxJS loads only after the relay's spawn (docs/design/
 * architecture.md, "Start-up"), so the subjects come later than the first frames: the output,
 * input, tail and gap frames and the errors that arrive before the caller could subscribe are held,
 * in order, and delivered right after (`attach`). Disposing it (the relay ended) releases whoever
 * waits for a tail and completes the streams, once the held items are out.
 */
import type { Disposable } from '../lifetime/disposable-store.js';
import { completeStreams, type BytePathStreams } from './byte-path-streams.js';
import type { RelayFrame } from './relay-frames.js';

type Delivery = (streams: BytePathStreams) => void;

export class RelayOutlets implements Disposable {
  #streams: BytePathStreams | undefined;
  /** Held until the caller has subscribed; undefined after. */
  #held: Delivery[] | undefined = [];
  #ended = false;
  readonly #tailWaiters: Array<() => void> = [];

  /** An output copy, typed input, tail or gap frame ('O', 'I', 'R', 'G'). */
  frame(frame: RelayFrame): void {
    if (this.#held) {
      // A held frame keeps a copy: the decoder reuses its buffer.
      const kept = { type: frame.type, payload: Buffer.from(frame.payload) };
      this.#held.push((s) => this.#deliver(kept, s));
    } else if (this.#streams) this.#deliver(frame, this.#streams);
  }

  error(message: string): void {
    if (this.#held) this.#held.push((s) => s.errors$.next(message));
    else this.#streams?.errors$.next(message);
  }

  /** Not held: a late subscriber reads the current state instead (`withCurrent`). */
  altScreen(active: boolean): void {
    this.#streams?.altScreenChange$.next(active);
  }

  /** Resolves once the next tail ('R') arrived, or the relay ended. */
  nextTail(): Promise<void> {
    if (this.#ended) return Promise.resolve();
    return new Promise<void>((resolve) => this.#tailWaiters.push(resolve));
  }

  /**
   * The caller subscribes to `streams` when `startNativeRelay` resolves; the held items follow on
   * the next turn. Resolves once the streams completed, after everything held was delivered.
   */
  attach(streams: BytePathStreams): Promise<void> {
    this.#streams = streams;
    const completed = new Promise<void>((resolve) => streams.errors$.subscribe({ complete: resolve }));
    setImmediate(() => {
      for (const deliver of this.#held?.splice(0) ?? []) deliver(streams);
      this.#held = undefined;
      if (this.#ended) completeStreams(streams);
    });
    return completed;
  }

  dispose(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#releaseTailWaiters();
    if (this.#streams && !this.#held) completeStreams(this.#streams); // else: once the held items are delivered
  }

  #deliver({ type, payload }: RelayFrame, s: BytePathStreams): void {
    switch (type) {
      case 'O':
        s.ptyOutput$.next(payload); // a view: see `ptyOutput$`
        break;
      case 'I':
        s.stdin$.next(Buffer.from(payload));
        break;
      case 'R':
        s.tail$.next(Buffer.from(payload));
        this.#releaseTailWaiters();
        break;
      case 'G':
        s.gap$.next(Number(payload.readBigUInt64LE(0)));
        break;
    }
  }

  #releaseTailWaiters(): void {
    for (const resolve of this.#tailWaiters.splice(0)) resolve();
  }
}
