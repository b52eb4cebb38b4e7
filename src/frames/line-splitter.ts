/**
 * Bounded line framing over a byte stream: every frame stream is bounded (docs/design/streams.md).
 *
 * Partial lines carry across chunks; `\n` and `\r\n` end a line; a line over the cap is skipped:
 * its bytes are counted, never kept, so a 50 MB line costs at most the cap in memory. A skipped
 * line leaves a SkippedLine item at its place in the output, so a consumer reports it exactly in
 * stream order (a callback would fire before the consumer has read the lines buffered ahead of it).
 *
 * Why not split2 (the usual choice): split2 appends every chunk to the carried
 * partial string and splits the whole string again, which is quadratic in the line length: one
 * long line cost seconds of CPU and several times its size in memory, even under the cap (see
 * bench/RESULTS.md, "Line splitting: split2 on one 50 MB line"). This splitter keeps the
 * partial line as a list of Buffers, joined once when the line ends, and splits on bytes (a
 * `\n` byte never occurs inside a UTF-8 multi-byte character, so each complete line decodes whole).
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';

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
  const splitter = createLineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  // The callback only stops pipeline from throwing; the error itself reaches the reader.
  pipeline(input, splitter, () => {});
  return splitter;
}

function createLineSplitter(maxBytes: number): Transform {
  const lines = new LineBuffer(maxBytes);
  return new Transform({
    readableObjectMode: true,
    // The writable side decodes strings to Buffers (decodeStrings), so chunks are always bytes.
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      lines.push(chunk, (line) => this.push(line));
      callback();
    },
    flush(callback: TransformCallback) {
      const last = lines.end();
      if (last !== undefined) this.push(last);
      callback();
    },
  });
}

/**
 * The framing itself, without a stream: bytes in, complete lines out, the unfinished last line
 * carried (at most the cap of it kept). A reader that reads a file on from an offset uses it
 * directly (transcript-reader.ts); `splitLines` wraps it in a Transform.
 */
export class LineBuffer {
  private kept: Buffer[] = [];
  private length = 0;
  private lastByte = -1;
  private skipping = false;

  constructor(private readonly maxBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** Bytes of the unfinished last line, counted whole even where they are no longer kept. */
  get pendingBytes(): number {
    return this.length;
  }

  /** Hands every line that `chunk` completes to `onLine`, in order; keeps the rest. */
  push(chunk: Buffer, onLine: (line: LineItem) => void): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.append(chunk.subarray(start, newline));
      onLine(this.endLine());
      start = newline + 1;
    }
    this.append(chunk.subarray(start));
  }

  /** The unfinished last line as a line (the input ended without a newline), or undefined; the buffer is empty after. */
  end(): LineItem | undefined {
    return this.length > 0 ? this.endLine() : undefined;
  }

  /** The unfinished last line as it would end now, leaving it in place. */
  peek(): LineItem | undefined {
    if (this.length === 0) return undefined;
    const bytes = this.lastByte === 0x0d ? this.length - 1 : this.length;
    return bytes > this.maxBytes ? { skippedBytes: bytes } : decode(this.kept, bytes);
  }

  /** Drops the unfinished last line. */
  clear(): void {
    this.kept = [];
    this.length = 0;
    this.lastByte = -1;
    this.skipping = false;
  }

  private append(segment: Buffer): void {
    if (segment.length === 0) return;
    this.length += segment.length;
    this.lastByte = segment[segment.length - 1]!;
    if (this.skipping) return;
    // One byte of slack: a trailing `\r` may turn out to be part of the `\r\n` ending.
    if (this.length > this.maxBytes + 1) {
      this.skipping = true;
      this.kept = [];
    } else this.kept.push(segment);
  }

  private endLine(): LineItem {
    const item = this.peek() ?? '';
    this.clear();
    return item;
  }
}

/** The first `bytes` bytes of the kept segments, as UTF-8 (the `\r` of `\r\n` falls outside). */
function decode(segments: Buffer[], bytes: number): string {
  const whole = segments.length === 1 ? segments[0]! : Buffer.concat(segments);
  return whole.toString('utf8', 0, bytes);
}
