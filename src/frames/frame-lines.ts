/**
 * Lines → frames. A stream-json stdout or a transcript file is a sequence of lines; each line
 * that holds a JSON object with a string `type` is a Frame. Anything else (progress noise,
 * binary garbage, a line cut short by a crash) is logged at WARN and skipped: one bad line never
 * ends the stream. Plain callbacks, no RxJS: the standalone Stop hook reads a transcript with
 * them and loads no RxJS (docs/design/architecture.md, "Start-up: what loads before the agent's spawn"); `frames$` (frame-parser.ts) is the
 * Observable of the same.
 */
import type { Readable } from 'node:stream';
import type { Frame } from './frame.js';
import { DEFAULT_MAX_LINE_BYTES, isSkippedLine, splitLines, type LineItem } from './line-splitter.js';
import { errorText } from '../errors.js';

/** The part of a logger the frame pipeline uses; `CheckerLogger` and ccc's logger fit. */
export interface FrameLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug?(message: string, fields?: Record<string, unknown>): void;
}

export type ParsedLine = { frame: Frame } | { error: string };

/** Parses one line. Never throws. Tolerates a BOM, `\r` and surrounding whitespace. */
export function parseFrameLine(line: string): ParsedLine {
  // trim() also removes U+FEFF (a BOM at the start of a file or of a concatenated chunk).
  const text = line.trim();
  if (text === '') return { error: 'empty line' };
  // "binary data" only explains a line that is not JSON: a valid frame may carry U+FFFD in a string.
  if (!text.startsWith('{')) return { error: looksBinary(text) ? 'binary data' : 'not a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: looksBinary(text) ? 'binary data' : `invalid JSON (${errorText(error)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'not a JSON object' };
  if (typeof (value as { type?: unknown }).type !== 'string') return { error: 'JSON object without a string "type"' };
  return { frame: value as Frame };
}

function looksBinary(text: string): boolean {
  // NUL never appears in JSON text; U+FFFD is what invalid UTF-8 decodes to.
  return /[\u0000\uFFFD]/.test(text.slice(0, 4096));
}

export interface FramesOptions {
  logger: FrameLogger;
  /** Longest line kept (default 16 MiB); longer lines are skipped with a WARN. */
  maxLineBytes?: number;
  /** Names the stream in log fields (`claude stdout`, `transcript`). */
  source?: string;
  /** Log every raw line at DEBUG, to see exactly what claude printed. */
  debugLines?: boolean;
}

/**
 * A logger for reading the same file several times (a transcript read again until claude has
 * flushed the turn): a skipped line is logged once per line number, not once per read. A line
 * torn mid-write grows between reads but keeps its number, so it is one warning too.
 */
export function oncePerLine(logger: FrameLogger): FrameLogger {
  const warned = new Set<string>();
  return {
    warn(message, fields) {
      const lineNo = fields?.line_no;
      if (typeof lineNo === 'number') {
        const key = `${String(fields?.source)}:${lineNo}`;
        if (warned.has(key)) return;
        warned.add(key);
      }
      logger.warn(message, fields);
    },
    ...(logger.debug ? { debug: logger.debug.bind(logger) } : {}),
  };
}

/** Longest excerpt of a line put into a log record. */
const PREVIEW_CHARS = 200;
const DEBUG_LINE_CHARS = 4096;

export interface FrameHandlers {
  frame(frame: Frame): void;
  end(): void;
  error(error: Error): void;
}

/**
 * Hands the frames of a byte stream to `handlers`, in order, then `end` (or `error`). Returns the
 * undo: stop reading and destroy the stream. Memory is bounded by `maxLineBytes`, whatever the input.
 */
export function readFrames(input: Readable, options: FramesOptions, handlers: FrameHandlers): () => void {
  const { logger, source = 'stream' } = options;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const lines = splitLines(input, { maxLineBytes });
  let lineNo = 0;
  const onLine = (line: LineItem) => {
    lineNo++;
    if (isSkippedLine(line)) {
      logger.warn(`Skipped a ${source} line longer than the limit`, { source, line_no: lineNo, bytes: line.skippedBytes, max_line_bytes: maxLineBytes });
      return;
    }
    if (options.debugLines) logger.debug?.(`${source} line`, { source, line: excerpt(line, DEBUG_LINE_CHARS) });
    const parsed = parseFrameLine(line);
    if ('frame' in parsed) handlers.frame(parsed.frame);
    else if (parsed.error !== 'empty line') {
      logger.warn(`Skipped a ${source} line: ${parsed.error}`, { source, line_no: lineNo, length: line.length, line: excerpt(line, PREVIEW_CHARS) });
    }
  };
  const onEnd = () => handlers.end();
  const onError = (error: Error) => handlers.error(error);
  lines.on('data', onLine);
  lines.once('end', onEnd);
  lines.once('error', onError);
  return () => {
    lines.off('data', onLine);
    lines.off('end', onEnd);
    lines.off('error', onError);
    // Errors after stopping (the input torn down under us) have no one left to tell.
    lines.on('error', () => {});
    lines.destroy();
  };
}

/** A log-safe excerpt: bounded, control characters escaped (JSON string syntax without quotes). */
function excerpt(line: string, max: number): string {
  const head = line.length > max ? `${line.slice(0, max)}…` : line;
  return JSON.stringify(head).slice(1, -1);
}
