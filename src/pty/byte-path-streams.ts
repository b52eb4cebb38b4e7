/**
 * The streams a byte path hands ccc, made in one place for both byte paths (the native relay makes
 * them once RxJS has loaded after its spawn, the Node proxy before its spawn; each passes RxJS's
 * `Subject` in, so that this module loads none of it). `typed$` is derived here, once, from
 * `stdin$`: what the user typed, the terminal's replies taken out by one filter that lives as long
 * as the input (src/input/typed-input.ts); it completes with `stdin$`, after what was held.
 */
import { TypedInput } from '../input/typed-input.js';
import type { Subject } from '../rx.js';

export interface BytePathStreams {
  ptyOutput$: Subject<Buffer>;
  stdin$: Subject<Buffer>;
  typed$: Subject<Buffer>;
  gap$: Subject<number>;
  tail$: Subject<Buffer>;
  errors$: Subject<string>;
  altScreenChange$: Subject<boolean>;
}

export function bytePathStreams(SubjectClass: typeof Subject): BytePathStreams {
  const streams: BytePathStreams = {
    ptyOutput$: new SubjectClass<Buffer>(),
    stdin$: new SubjectClass<Buffer>(),
    typed$: new SubjectClass<Buffer>(),
    gap$: new SubjectClass<number>(),
    tail$: new SubjectClass<Buffer>(),
    errors$: new SubjectClass<string>(),
    altScreenChange$: new SubjectClass<boolean>(),
  };
  const typed = new TypedInput((bytes) => streams.typed$.next(bytes));
  streams.stdin$.subscribe({
    next: (chunk) => typed.push(chunk),
    complete: () => {
      typed.end();
      streams.typed$.complete();
    },
  });
  return streams;
}

/** Completes every stream (`typed$` with `stdin$`), `errors$` among the last: its completion is the byte path's end. */
export function completeStreams(streams: BytePathStreams): void {
  streams.ptyOutput$.complete();
  streams.stdin$.complete();
  streams.gap$.complete();
  streams.tail$.complete();
  streams.errors$.complete();
  streams.altScreenChange$.complete();
}
