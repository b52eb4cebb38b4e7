/**
 * The value rules of the configuration, as zod schemas whose description completes "must be …".
 * The config schema and the environment parsers share them, so "what is allowed" reads the same
 * whether a bad value came from a file, a flag or an environment variable.
 */
import { z } from 'zod';

/**
 * Every number has a maximum: a value past it could not mean what it says (a timer Node cannot set
 * fires at once, a count no run reaches is no cap), so it is refused with the bound in the message.
 * `unit` follows the bound in that message ("at most 86400 (a day)").
 */
export function integer(min: number, max: number, unit?: string) {
  return z
    .number()
    .int()
    .min(min)
    .max(max)
    .describe(`an integer from ${min} to ${max}${unitText(unit)}`);
}

/** A number strictly above `above` and at most `max`. */
export function numberAbove(above: number, max: number, unit?: string) {
  return z
    .number()
    .gt(above)
    .max(max)
    .describe(`a number above ${above} and at most ${max}${unitText(unit)}`);
}

function unitText(unit: string | undefined): string {
  return unit === undefined ? '' : ` (${unit})`;
}

/** A number from `min` to `max`. */
export function numberFrom(min: number, max: number, unit?: string) {
  return z
    .number()
    .min(min)
    .max(max)
    .describe(`a number from ${min} to ${max}${unitText(unit)}`);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values).describe(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
}

export const nonEmptyString = z.string().min(1).describe('a non-empty string');

export const boolean = z.boolean().describe('true or false');

/** An http(s) address (a webhook's): its message never repeats the value, which may be a credential (secret-url.ts). */
export const httpUrl = z
  .string()
  .refine((url) => {
    try {
      const { protocol } = new URL(url);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'an http:// or https:// URL')
  .describe('an http:// or https:// URL');

/** An object literal or parsed JSON object whose values are anything (Claude Code's settings). */
export const anyObject = z.record(z.unknown()).refine(isPlainObject).describe('an object');

/** The "must be …" text of a rule. */
export function allowedText(rule: z.ZodTypeAny): string {
  return rule.description ?? 'a valid value';
}

/** An object literal or parsed JSON object, as opposed to arrays, class instances and null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
