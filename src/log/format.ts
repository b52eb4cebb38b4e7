/**
 * The log line (docs/configuration.md, "Files"), exactly:
 *   [2026-11-22T01:02:03.456Z] [INFO] [module] key=value key2="with space" message
 * One entry is always one line: values that would be ambiguous (empty, whitespace, quotes, `=`,
 * backslashes, control characters) are JSON-quoted, and line breaks in the message are escaped.
 */
import { jsonText } from '../value-text.js';

export type LevelName = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface LogEntry {
  date: Date;
  level: LevelName;
  module: string;
  fields: Record<string, unknown>;
  message: string;
}

export function formatLogLine(entry: LogEntry): string {
  const parts = [`[${entry.date.toISOString()}]`, `[${entry.level}]`, `[${entry.module}]`];
  for (const [key, value] of Object.entries(entry.fields)) {
    if (value === undefined) continue;
    parts.push(`${formatKey(key)}=${formatValue(value)}`);
  }
  if (entry.message !== '') parts.push(escapeControl(entry.message));
  return parts.join(' ') + '\n';
}

// C0 and C1 controls plus U+2028/2029: tools split lines on these, JSON.stringify leaves some raw.

const LINE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NEEDS_QUOTES = /[\s"=\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function formatValue(value: unknown): string {
  const text = valueText(value);
  if (text !== '' && !NEEDS_QUOTES.test(text)) return text;
  return JSON.stringify(text).replace(LINE_UNSAFE, unicodeEscape);
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.message;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value === null || typeof value !== 'object') return String(value);
  // Circular or BigInt inside: still logs something rather than lose the line.
  return jsonText(value);
}

/** Keys are the caller's, but a space or `=` in one would break `key=value` parsing. */
function formatKey(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return safe === '' ? '_' : safe;
}

function escapeControl(text: string): string {
  return text.replace(LINE_UNSAFE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return unicodeEscape(c);
  });
}

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
