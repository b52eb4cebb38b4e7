/**
 * The streams a byte path hands ccc, made in one place for both byte paths (the native relay makes
 * them once RxJS has loaded after its spawn, the Node proxy before its spawn; each passes RxJS's
 * `Subject` in, so that this module loads none of it), and completed in one place.
 */
import type { Subject } from '../rx.js';

export interface BytePathStreams {
  ptyOutput$: Subject<Buffer>;
  stdin$: Subject<Buffer>;
  gap$: Subject<number>;
  tail$: Subject<Buffer>;
  errors$: Subject<string>;
  altScreenChange$: Subject<boolean>;
}

export function bytePathStreams(SubjectClass: typeof Subject): BytePathStreams {
  return {
    ptyOutput$: new SubjectClass<Buffer>(),
    stdin$: new SubjectClass<Buffer>(),
    gap$: new SubjectClass<number>(),
    tail$: new SubjectClass<Buffer>(),
    errors$: new SubjectClass<string>(),
    altScreenChange$: new SubjectClass<boolean>(),
  };
}

/** Completes every stream, `errors$` among the last: its completion is the byte path's end. */
export function completeStreams(streams: BytePathStreams): void {
  streams.ptyOutput$.complete();
  streams.stdin$.complete();
  streams.gap$.complete();
  streams.tail$.complete();
  streams.errors$.complete();
  streams.altScreenChange$.complete();
}
