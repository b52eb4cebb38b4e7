/**
 * Live frames of a session transcript while Claude Code writes it (interactive mode's frames$,
 * docs/design/streams.md). Reads only new bytes, keeps partial lines until they are complete, and is
 * bounded like every other frame stream.
 */
import { PassThrough } from 'node:stream';
import { Observable } from '../rx.js';
import { followFile } from './file-follower.js';
import type { Frame } from './frame.js';
import { frames$, type FrameLogger } from './frame-parser.js';

export interface TailTranscriptOptions {
  /** Receives a WARN for every line that is not a frame, and when the file shrinks. */
  logger?: FrameLogger;
  maxLineBytes?: number;
  /** Poll interval when fs.watch gives no notice (default 500 ms). */
  pollMs?: number;
}

/**
 * Follows `file` from offset 0 (it may not exist yet) and emits its frames in order. Completes
 * when `signal` aborts (a partial last line is dropped, not reported); unsubscribing stops it too.
 */
export function tailTranscript(file: string, signal: AbortSignal, options: TailTranscriptOptions = {}): Observable<Frame> {
  const logger = options.logger ?? { warn: () => {} };
  return new Observable<Frame>((subscriber) => {
    if (signal.aborted) {
      subscriber.complete();
      return;
    }
    const bytes = new PassThrough();
    const subscription = frames$(bytes, { logger, maxLineBytes: options.maxLineBytes, source: 'transcript' }).subscribe(subscriber);
    const follower = followFile(file, {
      pollMs: options.pollMs ?? 500,
      onBytes: (chunk) => writeWithBackpressure(bytes, chunk),
      onRestart: () => logger.warn('The transcript got shorter; reading it again from the start', { file }),
      onError: (error) => subscriber.error(error),
    });
    const onAbort = () => subscriber.complete();
    signal.addEventListener('abort', onAbort, { once: true });
    return () => {
      signal.removeEventListener('abort', onAbort);
      follower.close();
      subscription.unsubscribe();
      bytes.destroy();
    };
  });
}

/** Resolves when `stream` can take more (or is gone, so a closed follower never waits forever). */
function writeWithBackpressure(stream: PassThrough, chunk: Buffer): Promise<void> | void {
  if (stream.destroyed || stream.write(chunk)) return;
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
