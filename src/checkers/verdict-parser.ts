/**
 * Turns what a reviewer answered into a Verdict (docs/design/reviewer.md). The reviewer runs without
 * `--json-schema` (it would change the tool list and lose the prompt cache), so its verdict is in
 * the `result` text: a verdict object in fences or bare, amid prose, or the completion marker on a
 * line of its own. `structured_output` is read first for callers that do pass a schema, whose
 * answer may still come as text (a model that ignores the schema gets one
 * `[structured-output-enforce]` reminder, then claude gives up with a plain-text `result`).
 * Undefined means unparseable: the caller retries or reports the checker failed.
 */
import { lastJsonObject } from '../claude/json-in-text.js';
import type { Frame } from '../frames/frame.js';
import type { Verdict } from './types.js';
import { readVerdictShape } from './verdict-shape.js';

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

/** `{completed: boolean, feedback?: string}`, with `allow_stop` accepted for `completed`; a model may write `feedback: null`. */
function asVerdict(value: unknown): Verdict | undefined {
  const shape = readVerdictShape(value, { nullFeedback: true });
  return shape.ok ? shape.verdict : undefined;
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
  const isMarkerLine = (line: string) =>
    line
      .trim()
      .replace(/^[*_`]+|[*_`]+$/g, '')
      .trim() === marker;
  if (!lines.some(isMarkerLine)) return undefined;
  return {
    completed: true,
    feedback: lines
      .filter((line) => !isMarkerLine(line))
      .join('\n')
      .trim(),
  };
}
