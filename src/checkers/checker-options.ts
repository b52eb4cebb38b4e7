/**
 * Validation of a built-in checker's options (`{ use: 'rule', … }`), once, when the pipeline is
 * built: a typo or a bad value is a PLUGIN_INVALID error (exit 2) naming the checker, the key, the
 * value and what is allowed, never a check that silently does nothing.
 */
import { CccError } from '../errors.js';
import { jsonText } from '../value-text.js';

export function invalidOption(checker: string, key: string, value: unknown, allowed: string): CccError {
  return new CccError(
    'PLUGIN_INVALID',
    `Invalid option "${key}" of the ${checker} checker in supervisor.checkers: got ${jsonText(value)}; expected ${allowed}.`,
    { data: { checker, key, value } },
  );
}

export function rejectUnknownKeys(checker: string, raw: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) throw invalidOption(checker, key, raw[key], `one of the keys ${known.join(', ')} (this one is unknown)`);
  }
}

export function optionalStringList(checker: string, raw: Record<string, unknown>, key: string): string[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidOption(checker, key, value, 'a list of strings');
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') throw invalidOption(checker, `${key}[${i}]`, item, 'a non-empty string');
  });
  return value as string[];
}

export function optionalName(checker: string, raw: Record<string, unknown>): string {
  const value = raw.name;
  if (value === undefined) return checker;
  if (typeof value !== 'string' || value.trim() === '') throw invalidOption(checker, 'name', value, 'a non-empty string');
  return value;
}

/** `timeout_seconds` is read by the pipeline; checked here so a bad value names its checker. */
export function checkTimeout(checker: string, raw: Record<string, unknown>): void {
  const value = raw.timeout_seconds;
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw invalidOption(checker, 'timeout_seconds', value, 'a number of seconds above 0');
  }
}
