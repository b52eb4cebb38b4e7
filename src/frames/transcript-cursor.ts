/**
 * Where a reading of a transcript stopped, as plain JSON: the file, which file it was (device and
 * inode), the offset of the end of its last complete line, the bytes just before that offset, and
 * the summary of every line before it. The standalone Stop hook keeps it in the session state
 * (`transcript_cursor`, docs/design/files.md) so that the next stop, a new process, reads only what
 * claude appended since. Read back strictly: anything off is no cursor, and the transcript is
 * read from the start, which costs time and loses nothing.
 */
import type { SessionGoal } from './goal-status.js';
import type { SummaryState } from './transcript-summary.js';

export interface TranscriptCursor {
  /** The shape's version: a cursor of another shape is dropped, not misread. */
  v: 1;
  path: string;
  /** `stat`'s device and inode numbers, as decimal strings (an inode may not fit a double). */
  dev: string;
  ino: string;
  /** Bytes read: the end of the last complete line. */
  offset: number;
  /** Lines before `offset` (a skipped line's number in a warning goes on from here). */
  lines: number;
  /** The last bytes before `offset`, base64: the same bytes must be there for the reading to go on. */
  fingerprint: string;
  summary: SummaryState;
}

const GOAL_STATES = new Set(['active', 'met', 'impossible']);
const GOAL_CHECKS = new Set(['not-met', 'met', 'impossible']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isText = (v: unknown): v is string => typeof v === 'string';
const isDecimal = (v: unknown): v is string => isText(v) && /^\d{1,20}$/.test(v);

/** The cursor `value` holds, or undefined when it is not one (absent, another version, torn, edited). */
export function parseTranscriptCursor(value: unknown): TranscriptCursor | undefined {
  if (!isObject(value) || value.v !== 1) return undefined;
  const { path, dev, ino, offset, lines, fingerprint, summary } = value;
  if (!isText(path) || !isDecimal(dev) || !isDecimal(ino) || !isCount(offset) || !isCount(lines) || !isText(fingerprint)) return undefined;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(fingerprint) || lines > offset || !isSummaryState(summary) || summary.frames > lines) return undefined;
  return { v: 1, path, dev, ino, offset, lines, fingerprint, summary };
}

function isSummaryState(v: unknown): v is SummaryState {
  return (
    isObject(v) &&
    Array.isArray(v.userPrompts) &&
    v.userPrompts.every(isText) &&
    isCount(v.frames) &&
    isCount(v.framesToLastAssistant) &&
    v.framesToLastAssistant <= v.frames &&
    isText(v.lastText) &&
    (v.lastMessageId === undefined || isText(v.lastMessageId)) &&
    (v.goal === undefined || isGoal(v.goal)) &&
    isCount(v.stopsSentBack) &&
    typeof v.sentBack === 'boolean'
  );
}

function isGoal(v: unknown): v is SessionGoal {
  return (
    isObject(v) &&
    isText(v.condition) &&
    GOAL_STATES.has(v.state as string) &&
    typeof v.checkedAtStop === 'boolean' &&
    (v.thisStop === undefined || GOAL_CHECKS.has(v.thisStop as string))
  );
}
