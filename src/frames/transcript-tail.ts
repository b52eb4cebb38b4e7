/**
 * Live frames of a session transcript while Claude Code writes it (interactive mode's frames$,
 * docs/design/streams.md). The reading is a TranscriptReader: only new bytes are read, a partial line
 * waits until it is complete, and the session's stops read on through the same reader, so the
 * frames a stop's review sees and the summary it decides on come from one reading of the file.
 */
import { Observable } from '../rx.js';
import { followFile } from './file-follower.js';
import type { Frame } from './frame.js';
import type { TranscriptReader } from './transcript-reader.js';

export interface TailTranscriptOptions {
  /** Poll interval when fs.watch gives no notice (default 500 ms). */
  pollMs?: number;
}

/**
 * Follows the reader's file (it may not exist yet) and emits the frames of its complete lines in
 * order, from where the reader stands (a new reader: the start of the file). Completes when
 * `signal` aborts; unsubscribing stops it too.
 */
export function tailTranscript(reader: TranscriptReader, signal: AbortSignal, options: TailTranscriptOptions = {}): Observable<Frame> {
  return new Observable<Frame>((subscriber) => {
    if (signal.aborted) {
      subscriber.complete();
      return;
    }
    const offFrame = reader.onFrame((frame) => subscriber.next(frame));
    const follower = followFile(reader.file, {
      pollMs: options.pollMs ?? 500,
      read: () => reader.readOn(),
      onError: (error) => subscriber.error(error),
    });
    const onAbort = () => subscriber.complete();
    signal.addEventListener('abort', onAbort, { once: true });
    return () => {
      signal.removeEventListener('abort', onAbort);
      follower.close();
      offFrame();
    };
  });
}
