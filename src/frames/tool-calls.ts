/**
 * The agent's tool calls in its stream-json frames, each told in a few words for people watching
 * from afar: the tool's name and the one input field that says what the call is about (a file
 * path, a command's first line, a pattern, a URL). The words are inert (no control character
 * survives) and short, whatever the model put in the call: the exact input stays in the frames.
 */
import { inertLine } from '../pty/inert-text.js';
import { clip } from '../value-text.js';
import type { Frame } from './frame.js';

/** One tool call of the agent: its name, and its input in a few words. */
export interface ToolCall {
  name: string;
  input: string;
}

/** The input fields that say what a call is about, most telling first (claude's own tools use these names). */
const TELLING_FIELDS = ['file_path', 'notebook_path', 'command', 'pattern', 'path', 'url', 'query', 'description', 'prompt', 'skill'];

export const TOOL_NAME_CHARS = 60;
export const TOOL_INPUT_CHARS = 120;

/** The tool calls of an assistant frame, in order; none for every other frame. */
export function toolCallsOf(frame: Frame): ToolCall[] {
  if (frame.type !== 'assistant') return [];
  const content = (frame.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  const calls: ToolCall[] = [];
  for (const block of content as unknown[]) {
    if (!isRecord(block) || block.type !== 'tool_use' || typeof block.name !== 'string') continue;
    calls.push({ name: clip(inertLine(block.name).trim(), TOOL_NAME_CHARS), input: inputWords(block.input) });
  }
  return calls;
}

/** The first telling field's first non-blank line, clipped; '' when the input has none. */
function inputWords(input: unknown): string {
  if (!isRecord(input)) return '';
  for (const field of TELLING_FIELDS) {
    const value = input[field];
    if (typeof value !== 'string') continue;
    const line = value.split(/\r?\n/).find((l) => l.trim() !== '');
    if (line !== undefined) return clip(inertLine(line).trim(), TOOL_INPUT_CHARS);
  }
  return '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
