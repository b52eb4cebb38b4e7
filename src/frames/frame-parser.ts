/**
 * `frames$`: the frames of a byte stream (stream-json stdout, a transcript) as an Observable.
 * The parsing, and what happens to lines that are not frames, is in frame-lines.ts.
 */
import type { Readable } from 'node:stream';
import { Observable } from '../rx.js';
import type { Frame } from './frame.js';
import { readFrames, type FramesOptions } from './frame-lines.js';

export { parseFrameLine, type FramesOptions } from './frame-lines.js';

/**
 * The frames of a byte stream, in order. Completes when the stream ends, errors when it errors.
 * Unsubscribing destroys the stream. Memory is bounded by `maxLineBytes`, whatever the input.
 */
export function frames$(input: Readable, options: FramesOptions): Observable<Frame> {
  return new Observable<Frame>((subscriber) =>
    readFrames(input, options, {
      frame: (frame) => subscriber.next(frame),
      end: () => subscriber.complete(),
      error: (error) => subscriber.error(error),
    }),
  );
}
