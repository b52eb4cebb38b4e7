/**
 * Bounded line framing over a byte stream (design section 2, style point 10).
 *
 * `split2` does the splitting: partial lines carry across chunks, `\n` and `\r\n` both end a
 * line, UTF-8 characters split across chunks are decoded whole. With `maxLength` +
 * `skipOverflow` it stops buffering a line once it passes the cap and discards the rest of it,
 * so a 50 MB line costs at most the cap in memory, never the whole line.
 *
 * split2 skips silently and only notices lines that outgrow the cap across chunks, so a small
 * meter in front of it counts every line's bytes and reports each over-long line exactly once
 * (with its full size), and the mapper drops an over-long line that happened to arrive whole.
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import split2 from 'split2';

/** Lines longer than this are skipped. Large enough for any real stream-json message. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface SplitLinesOptions {
  /** Longest line kept, in bytes (default 16 MiB). Longer lines are skipped, never buffered whole. */
  maxLineBytes?: number;
  /** Called once per skipped line with its length in bytes (without the line ending). */
  onOverflow?: (bytes: number) => void;
}

/**
 * Splits a byte stream into lines. Returns an object-mode Readable of strings (line endings
 * removed; a last line without a newline is emitted too). Errors of `input` surface as an
 * `error` on the returned stream; destroying the returned stream destroys `input`.
 */
export function splitLines(input: Readable, options: SplitLinesOptions = {}): Readable {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitOptions: split2.Options & { skipOverflow: boolean } = {
    // split2 counts UTF-16 units; a string of more than maxBytes units has more than maxBytes bytes.
    maxLength: maxBytes,
    // split2 supports it; @types/split2 does not list it yet.
    skipOverflow: true,
  };
  const lines = split2(/\r?\n/, (line: string) => (isOverLong(line, maxBytes) ? undefined : line), splitOptions);
  // The callback only stops pipeline from throwing; the error itself reaches `lines` consumers.
  pipeline(input, lineMeter(maxBytes, options.onOverflow ?? (() => {})), lines, () => {});
  return lines;
}

function isOverLong(line: string, maxBytes: number): boolean {
  // Cheap checks first: byteLength is at least length and at most 3 × length.
  if (line.length > maxBytes) return true;
  if (line.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(line) > maxBytes;
}

/**
 * Passes bytes through unchanged and reports each line longer than `maxBytes`. Constant memory:
 * it keeps only the current line's length and its last byte (to not count the `\r` of `\r\n`).
 */
function lineMeter(maxBytes: number, onOverflow: (bytes: number) => void): Transform {
  let length = 0;
  let lastByte = -1;
  const endLine = (lineEnded: boolean) => {
    const bytes = lineEnded && lastByte === 0x0d ? length - 1 : length;
    if (bytes > maxBytes) onOverflow(bytes);
    length = 0;
    lastByte = -1;
  };
  return new Transform({
    // Writable side decodes strings to Buffers (decodeStrings), so chunks are always bytes.
    transform(bytes: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      let start = 0;
      for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
        length += newline - start;
        if (newline > start) lastByte = bytes[newline - 1]!;
        endLine(true);
        start = newline + 1;
      }
      length += bytes.length - start;
      if (bytes.length > start) lastByte = bytes[bytes.length - 1]!;
      callback(null, bytes);
    },
    flush(callback: TransformCallback) {
      if (length > 0) endLine(false);
      callback();
    },
  });
}
