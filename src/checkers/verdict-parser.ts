/**
 * Turns what a reviewer answered into a Verdict (design section 6). `--json-schema` structured
 * output is the normal path, but it has failed across claude releases (missing
 * `structured_output`; a model that answers in text: claude then nags once with
 * `[structured-output-enforce]` and gives up with a plain-text `result`), so the result text is
 * always a fallback: a verdict object in fences or bare, amid prose, or the completion marker on a
 * line of its own. Undefined means unparseable: the caller retries or reports the checker failed.
 */
import { isJsonObject, lastJsonObject } from '../claude/json-in-text.js';
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
  if (!isJsonObject(value)) return undefined;
  const record = value;
  const completed = typeof record.completed === 'boolean' ? record.completed : record.allow_stop;
  if (typeof completed !== 'boolean') return undefined;
  const feedback = record.feedback;
  if (feedback === undefined || feedback === null) return { completed, feedback: '' };
  if (typeof feedback !== 'string') return undefined;
  return { completed, feedback };
}

/** The verdict object that starts last in `text` (fences and prose around it are ignored). */
function lastVerdictObject(text: string): Verdict | undefined {
  return lastJsonObject(text, asVerdict);
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
