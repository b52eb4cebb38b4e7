/**
 * The relay's streams on ccc's side. RxJS loads only after the relay's spawn (docs/design/
 * architecture.md, "Start-up"), so the subjects come later than the first frames: the output,
 * input, tail and gap frames and the errors that arrive before the caller could subscribe are held,
 * in order, and delivered right after (`attach`). Disposing it (the relay ended) releases whoever
 * waits for a tail and completes the streams, once the held items are out.
 */
import type { Disposable } from '../lifetime/disposable-store.js';
import type { Subject } from '../rx.js';
import type { RelayFrame } from './relay-frames.js';

export interface RelayStreams {
  ptyOutput$: Subject<Buffer>;
  stdin$: Subject<Buffer>;
  gap$: Subject<number>;
  tail$: Subject<Buffer>;
  errors$: Subject<string>;
  altScreenChange$: Subject<boolean>;
}

/** The relay's subjects, made once RxJS has loaded (its constructor passed in, so this module does not load it). */
export function relayStreams(Subject: typeof import('../rx.js').Subject): RelayStreams {
  return {
    ptyOutput$: new Subject<Buffer>(),
    stdin$: new Subject<Buffer>(),
    gap$: new Subject<number>(),
    tail$: new Subject<Buffer>(),
    errors$: new Subject<string>(),
    altScreenChange$: new Subject<boolean>(),
  };
}

type Delivery = (streams: RelayStreams) => void;

export class RelayOutlets implements Disposable {
  #streams: RelayStreams | undefined;
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
  attach(streams: RelayStreams): Promise<void> {
    this.#streams = streams;
    const completed = new Promise<void>((resolve) => streams.errors$.subscribe({ complete: resolve }));
    setImmediate(() => {
      for (const deliver of this.#held?.splice(0) ?? []) deliver(streams);
      this.#held = undefined;
      if (this.#ended) complete(streams);
    });
    return completed;
  }

  dispose(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#releaseTailWaiters();
    if (this.#streams && !this.#held) complete(this.#streams); // else: once the held items are delivered
  }

  #deliver({ type, payload }: RelayFrame, s: RelayStreams): void {
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

function complete(s: RelayStreams): void {
  s.ptyOutput$.complete();
  s.stdin$.complete();
  s.gap$.complete();
  s.tail$.complete();
  s.errors$.complete();
  s.altScreenChange$.complete();
}
