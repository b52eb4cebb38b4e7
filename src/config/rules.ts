/**
 * The value rules of the configuration, as zod schemas whose description completes "must be …".
 * The config schema and the environment parsers share them, so "what is allowed" reads the same
 * whether a bad value came from a file, a flag or an environment variable.
 */
import { z } from 'zod';

export function integer(min: number, max?: number) {
  const base = z.number().int().safe().min(min);
  return (max === undefined ? base : base.max(max)).describe(max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`);
}

/** A finite number strictly above `above`. */
export function numberAbove(above: number) {
  return z.number().finite().gt(above).describe(`a number > ${above}`);
}

/** A finite number of at least `min`. */
export function numberAtLeast(min: number) {
  return z.number().finite().min(min).describe(`a number >= ${min}`);
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
