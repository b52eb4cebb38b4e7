/**
 * Turns what a reviewer answered into a Verdict (design section 6). `--json-schema` structured
 * output is the normal path, but it has failed across claude releases (missing
 * `structured_output`; a model that answers in text: claude then nags once with
 * `[structured-output-enforce]` and gives up with a plain-text `result`), so the result text is
 * always a fallback: a verdict object in fences or bare, amid prose, or the completion marker on a
 * line of its own. Undefined means unparseable: the caller retries or reports the checker failed.
 */
import type { Frame } from '../frames/frame.js';
import type { Verdict } from './types.js';

export interface VerdictSources {
  /** The `result` frame's `structured_output`. */
  structuredOutput?: unknown;
  /** The `result` frame's `result` text. */
  resultText?: string;
  /** `[TASK_COMPLETED]` by default; an empty marker disables the marker rule. */
  completionMarker: string;
}

/** Only the tail of a long answer is searched for a verdict object: it comes last. */
const MAX_SEARCH_CHARS = 256 * 1024;
/** Candidate `{` positions tried, and the longest object considered: bounds the work on garbage. */
const MAX_CANDIDATES = 500;
const MAX_OBJECT_CHARS = 64 * 1024;

/** Never throws. */
export function parseVerdict(input: VerdictSources): Verdict | undefined {
  const structured = asVerdict(input.structuredOutput);
  if (structured) return structured;
  if (typeof input.structuredOutput === 'string') {
    const fromString = lastVerdictObject(input.structuredOutput);
    if (fromString) return fromString;
  }
  const text = input.resultText;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  return lastVerdictObject(text) ?? markerVerdict(text, input.completionMarker);
}

/** The verdict of a stream-json `result` frame, or undefined when it carries none. */
export function verdictFromResultFrame(frame: Frame, completionMarker: string): Verdict | undefined {
  return parseVerdict({
    structuredOutput: frame.structured_output,
    resultText: typeof frame.result === 'string' ? frame.result : undefined,
    completionMarker,
  });
}

/** `{completed: boolean, feedback?: string}`, with `allow_stop` accepted for `completed`. */
function asVerdict(value: unknown): Verdict | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const completed = typeof record.completed === 'boolean' ? record.completed : record.allow_stop;
  if (typeof completed !== 'boolean') return undefined;
  const feedback = record.feedback;
  if (feedback === undefined || feedback === null) return { completed, feedback: '' };
  if (typeof feedback !== 'string') return undefined;
  return { completed, feedback };
}

/** The verdict object that starts last in `text` (fences and prose around it are ignored). */
function lastVerdictObject(fullText: string): Verdict | undefined {
  const text = fullText.length > MAX_SEARCH_CHARS ? fullText.slice(-MAX_SEARCH_CHARS) : fullText;
  let candidates = 0;
  for (let start = text.lastIndexOf('{'); start !== -1 && candidates < MAX_CANDIDATES; start = text.lastIndexOf('{', start - 1)) {
    candidates += 1;
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const verdict = asVerdict(tryJson(text.slice(start, end + 1)));
    if (verdict) return verdict;
    if (start === 0) break;
  }
  return undefined;
}

/** Index of the `}` that closes the `{` at `start`, skipping JSON strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  const limit = Math.min(text.length, start + MAX_OBJECT_CHARS);
  for (let i = start; i < limit; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The marker alone on a line (Markdown emphasis or backticks around it allowed) means completed;
 * the rest of the text is the feedback. A marker inside a sentence does not count: a reviewer
 * writing "do not print [TASK_COMPLETED] yet" has not confirmed anything.
 */
function markerVerdict(text: string, marker: string): Verdict | undefined {
  if (marker === '') return undefined;
  const lines = text.split(/\r?\n/);
  const isMarkerLine = (line: string) => line.trim().replace(/^[*_`]+|[*_`]+$/g, '').trim() === marker;
  if (!lines.some(isMarkerLine)) return undefined;
  return { completed: true, feedback: lines.filter((line) => !isMarkerLine(line)).join('\n').trim() };
}
