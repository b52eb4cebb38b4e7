/**
 * Bounded line framing over a byte stream (design section 2, style point 10).
 *
 * `split2` does the splitting: partial lines carry across chunks, `\n` and `\r\n` both end a
 * line, UTF-8 characters split across chunks are decoded whole. With `maxLength` +
 * `skipOverflow` it stops buffering a line once it passes the cap and discards the rest of it,
 * so a 50 MB line costs at most the cap in memory, never the whole line.
 *
 * split2 skips silently, so a meter in front of it counts each line's bytes and, after a line
 * over the cap, inserts a marker line (with a per-splitter random nonce, so input cannot forge
 * it). The mapper turns the marker into a SkippedLine item in the output, at the place of the
 * skipped line: a consumer sees it exactly in order (a callback could only fire when split2
 * gets to the line, which is before a consumer has read the lines buffered ahead of it).
 */
import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import split2 from 'split2';

/** Lines longer than this are skipped. Large enough for any real stream-json message. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface SplitLinesOptions {
  /** Longest line kept, in bytes without the line ending (default 16 MiB). Longer lines are skipped, never buffered whole. */
  maxLineBytes?: number;
}

/** Stands in for a line longer than the cap, at that line's place in the output. */
export interface SkippedLine {
  readonly skippedBytes: number;
}

/** An item of splitLines' output. */
export type LineItem = string | SkippedLine;

export function isSkippedLine(item: LineItem): item is SkippedLine {
  return typeof item !== 'string';
}

/**
 * Splits a byte stream into lines. Returns an object-mode Readable of LineItems: each line as a
 * string (line ending removed; a last line without a newline counts as a line), or a SkippedLine
 * with the length in bytes of a line over the cap. Errors of `input` surface as an `error` on
 * the returned stream; destroying the returned stream destroys `input`.
 */
export function splitLines(input: Readable, options: SplitLinesOptions = {}): Readable {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const markerPrefix = `\u0000ccc-line-overflow-${randomUUID()}:`;
  const splitOptions: split2.Options & { skipOverflow: boolean } = {
    // split2 counts UTF-16 units (a string of more than maxBytes units has more than maxBytes
    // bytes) and counts the `\r` of a `\r\n` cut between chunks. Its cap must also let a marker
    // line through whatever maxBytes is. The mapper enforces maxBytes exactly.
    maxLength: maxBytes + 1 + markerPrefix.length + 20,
    // split2 supports it; @types/split2 does not list it yet.
    skipOverflow: true,
  };
  const lines = split2(
    /\r?\n/,
    (line: string): LineItem | undefined => {
      if (line.startsWith(markerPrefix)) return { skippedBytes: Number(line.slice(markerPrefix.length)) };
      // An over-long line that split2 got whole in one chunk: its marker follows it.
      return isOverLong(line, maxBytes) ? undefined : line;
    },
    splitOptions,
  );
  // The callback only stops pipeline from throwing; the error itself reaches `lines` consumers.
  pipeline(input, lineMeter(maxBytes, (bytes) => Buffer.from(`\n${markerPrefix}${bytes}`)), lines, () => {});
  return lines;
}

function isOverLong(line: string, maxBytes: number): boolean {
  // Cheap checks first: byteLength is at least length and at most 3 × length.
  if (line.length > maxBytes) return true;
  if (line.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(line) > maxBytes;
}

/**
 * Passes bytes through and, right after each line over `maxBytes`, inserts `marker(bytes)`
 * (which starts with `\n`, so the marker becomes a line of its own ended by the line's own
 * newline). Constant memory: it keeps only the current line's length and last byte (the `\r`
 * of `\r\n` is not counted, as split2 removes it). The last line always gets a newline, so
 * every line, the last one included, is measured the same way.
 */
function lineMeter(maxBytes: number, marker: (bytes: number) => Buffer): Transform {
  let length = 0;
  let lastByte = -1;
  const lineBytes = () => (lastByte === 0x0d ? length - 1 : length);
  return new Transform({
    // The writable side decodes strings to Buffers (decodeStrings), so chunks are always bytes.
    transform(bytes: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      let passed = 0;
      let scan = 0;
      for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, scan)) {
        length += newline - scan;
        if (newline > scan) lastByte = bytes[newline - 1]!;
        if (lineBytes() > maxBytes) {
          this.push(bytes.subarray(passed, newline));
          this.push(marker(lineBytes()));
          passed = newline; // the line's own newline now ends the marker line
        }
        length = 0;
        lastByte = -1;
        scan = newline + 1;
      }
      length += bytes.length - scan;
      if (bytes.length > scan) lastByte = bytes[bytes.length - 1]!;
      callback(null, passed < bytes.length ? bytes.subarray(passed) : undefined);
    },
    flush(callback: TransformCallback) {
      if (length > 0) {
        if (lineBytes() > maxBytes) this.push(marker(lineBytes()));
        this.push(Buffer.from('\n'));
      }
      callback();
    },
  });
}
