/**
 * A transcript read on from where its last reading stopped: each `readOn()` reads only the bytes
 * claude appended since, folds their lines into the running summary, hands their frames to the
 * listeners (the interactive tail), and answers the summary of the whole file, equal to reading it
 * all at once (`readTranscript`, which is this read once from the start).
 *
 * A line still being written (no newline yet) is carried, not committed: the summary counts it as a
 * whole read would (a last line without newline is a line), its frame goes to no listener, and the
 * cursor ends before it, so the next reading, in this process or another, takes it up whole. A file
 * that got shorter, is another file (device, inode), or no longer holds the bytes the reading
 * stopped after, is read again from the start.
 */
import fs from 'node:fs';
import { errorText } from '../errors.js';
import type { Frame } from './frame.js';
import { frameOfLine, type FrameLogger } from './frame-lines.js';
import { DEFAULT_MAX_LINE_BYTES, LineBuffer, type LineItem } from './line-splitter.js';
import type { TranscriptCursor } from './transcript-cursor.js';
import { createTranscriptSummary, type TranscriptFold, type TranscriptSummary } from './transcript-summary.js';

export interface TranscriptReaderOptions {
  /** Receives a WARN for every line that is not a frame (once per line), and when reading starts over. */
  logger?: FrameLogger;
  maxLineBytes?: number;
  /** Where an earlier reading of this file stopped (the standalone hook's, from the session state). */
  from?: TranscriptCursor;
}

/** Bytes per read: large enough that a first reading of a long transcript is not a syscall per line. */
const READ_CHUNK_BYTES = 256 * 1024;
/** How many bytes before the offset must still be the same for a reading to go on. */
const FINGERPRINT_BYTES = 64;
const silentLogger: FrameLogger = { warn: () => {} };

export class TranscriptReader {
  private fold: TranscriptFold = createTranscriptSummary();
  private readonly lines: LineBuffer;
  private readonly logger: FrameLogger;
  private readonly maxLineBytes: number;
  /** Complete lines read, and bytes read (those lines and the unfinished one after them). */
  private lineCount = 0;
  private offset = 0;
  private identity?: { dev: string; ino: string };
  private fingerprint: Buffer = Buffer.alloc(0);
  /** The number of the unfinished line a summary already warned about (it is warned about once). */
  private warnedLine = 0;
  private readonly listeners = new Set<(frame: Frame) => void>();
  /** The last reading scheduled, and one not begun yet (calls meanwhile share it). */
  private chain: Promise<void> = Promise.resolve();
  private waiting?: Promise<void>;

  constructor(
    readonly file: string,
    options: TranscriptReaderOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.lines = new LineBuffer(this.maxLineBytes);
    const from = options.from;
    if (from && from.path === file) {
      this.fold = createTranscriptSummary(from.summary);
      this.lineCount = from.lines;
      this.offset = from.offset;
      this.identity = { dev: from.dev, ino: from.ino };
      this.fingerprint = Buffer.from(from.fingerprint, 'base64');
    }
  }

  /** Every complete line's frame from now on, in file order. Returns the undo. */
  onFrame(listener: (frame: Frame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads what was appended since the last reading and answers the summary of the whole file.
   * Rejects when the file cannot be read (ENOENT included: the caller knows whether that is normal).
   */
  async readOn(): Promise<TranscriptSummary> {
    await this.schedule();
    return this.summary();
  }

  /** The summary of what was read, the unfinished last line counted as a whole read counts it. */
  summary(): TranscriptSummary {
    const pending = this.lines.peek();
    if (pending === undefined) return this.fold.result();
    const lineNo = this.lineCount + 1;
    const logger = this.warnedLine === lineNo ? silentLogger : { warn: (m: string, f?: Record<string, unknown>) => this.warnPending(lineNo, m, f) };
    const frame = frameOfLine(pending, lineNo, { logger, source: 'transcript', maxLineBytes: this.maxLineBytes });
    if (!frame) return this.fold.result();
    const withPending = createTranscriptSummary(this.fold.state());
    withPending.add(frame);
    return withPending.result();
  }

  /** Where this reading stopped: the end of the last complete line. */
  cursor(): TranscriptCursor {
    return {
      v: 1,
      path: this.file,
      dev: this.identity?.dev ?? '0',
      ino: this.identity?.ino ?? '0',
      offset: this.committed,
      lines: this.lineCount,
      fingerprint: this.fingerprint.toString('base64'),
      summary: this.fold.state(),
    };
  }

  private get committed(): number {
    return this.offset - this.lines.pendingBytes;
  }

  /** One reading at a time; callers that come while one waits to begin share it (it will see what they would). */
  private schedule(): Promise<void> {
    if (this.waiting) return this.waiting;
    const reading = this.chain.then(() => {
      this.waiting = undefined;
      return this.read();
    });
    this.waiting = reading;
    this.chain = reading.catch(() => {});
    return reading;
  }

  private async read(): Promise<void> {
    const handle = await fs.promises.open(this.file, 'r');
    try {
      const stat = await handle.stat({ bigint: true });
      const size = Number(stat.size);
      const identity = { dev: String(stat.dev), ino: String(stat.ino) };
      const why = await this.whyStartOver(handle, identity, size);
      if (why) this.startOver(why);
      this.identity = identity;
      const before = this.committed;
      while (this.offset < size) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - this.offset));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        this.lines.push(buffer.subarray(0, bytesRead), (line) => this.commit(line));
      }
      if (this.committed !== before) this.fingerprint = await bytesBefore(handle, this.committed);
    } finally {
      await handle.close();
    }
  }

  /** Why what was read is no longer the start of this file, if it is not. */
  private async whyStartOver(handle: fs.promises.FileHandle, identity: { dev: string; ino: string }, size: number): Promise<string | undefined> {
    if (this.offset === 0) return undefined;
    if (this.identity && (this.identity.dev !== identity.dev || this.identity.ino !== identity.ino)) return 'was replaced';
    if (size < this.offset) return 'got shorter';
    const at = this.committed;
    if (at > 0 && !(await bytesBefore(handle, at)).equals(this.fingerprint)) return 'was rewritten';
    return undefined;
  }

  private startOver(why: string): void {
    this.logger.warn(`The transcript ${why}; reading it again from the start`, { file: this.file });
    this.fold = createTranscriptSummary();
    this.lines.clear();
    this.lineCount = 0;
    this.offset = 0;
    this.fingerprint = Buffer.alloc(0);
    this.warnedLine = 0;
  }

  private commit(line: LineItem): void {
    this.lineCount += 1;
    const logger = this.warnedLine === this.lineCount ? silentLogger : this.logger;
    const frame = frameOfLine(line, this.lineCount, { logger, source: 'transcript', maxLineBytes: this.maxLineBytes });
    if (!frame) return;
    this.fold.add(frame);
    for (const listener of this.listeners) {
      try {
        listener(frame);
      } catch (error) {
        // One listener's failure must not leave the reading half done (its offset is already past the line).
        this.logger.warn(`a transcript frame listener threw: ${errorText(error)}`, { file: this.file });
      }
    }
  }

  private warnPending(lineNo: number, message: string, fields?: Record<string, unknown>): void {
    this.warnedLine = lineNo;
    this.logger.warn(message, fields);
  }
}

/** The FINGERPRINT_BYTES bytes (fewer at the start of the file) before `offset`. */
async function bytesBefore(handle: fs.promises.FileHandle, offset: number): Promise<Buffer> {
  const length = Math.min(FINGERPRINT_BYTES, offset);
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset - length);
  return buffer.subarray(0, bytesRead);
}
