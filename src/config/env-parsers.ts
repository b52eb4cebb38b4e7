/**
 * Parsers from an environment variable's text to a typed config value. Each one is strict (no
 * `parseInt("12abc")` leniency) and checks the text against the rule of the key it sets (the
 * schema's, bounds included), so the "allowed" text of an env error matches the one a config file
 * would get.
 */
import type { z } from 'zod';
import { allowedText, boolean as booleanRule, httpUrl, nonEmptyString, oneOf } from './rules.js';

export interface EnvParser<T> {
  /** Completes "must be …". */
  allowed: string;
  /** The parsed value, or undefined when the text is not allowed. */
  parse(raw: string): T | undefined;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function fromRule<T>(rule: z.ZodType<T>, coerce: (raw: string) => unknown): EnvParser<T> {
  return {
    allowed: allowedText(rule),
    parse(raw) {
      const parsed = rule.safeParse(coerce(raw));
      return parsed.success ? parsed.data : undefined;
    },
  };
}

/** Decimal digits only, checked against `rule` (an integer rule of rules.ts). */
export function envInteger(rule: z.ZodType<number>): EnvParser<number> {
  return fromRule(rule, (raw) => (INTEGER_TEXT.test(raw.trim()) ? Number(raw.trim()) : undefined));
}

/** A decimal number (`1.5`, `.5`, `2e3`), checked against `rule`. */
export function envNumber(rule: z.ZodType<number>): EnvParser<number> {
  return fromRule(rule, (raw) => (DECIMAL_TEXT.test(raw.trim()) ? Number(raw.trim()) : undefined));
}

/** Case-insensitive: `CCC_SUPERVISOR_LOG_LEVEL=DEBUG` means `debug`. */
export function envOneOf<const T extends readonly [string, ...string[]]>(values: T): EnvParser<T[number]> {
  return fromRule(oneOf(values), (raw) => raw.trim().toLowerCase());
}

/** Taken verbatim (paths and tokens may legitimately carry spaces). */
export function envString(): EnvParser<string> {
  return fromRule(nonEmptyString, (raw) => raw);
}

/** An http(s) URL, taken verbatim but for surrounding blanks. */
export function envHttpUrl(): EnvParser<string> {
  return fromRule(httpUrl, (raw) => raw.trim());
}

const TRUE_TEXT = new Set(['true', '1', 'yes', 'on']);
const FALSE_TEXT = new Set(['false', '0', 'no', 'off']);

export function envBoolean(): EnvParser<boolean> {
  return {
    allowed: `${allowedText(booleanRule)} (also 1/0, yes/no, on/off)`,
    parse(raw) {
      const text = raw.trim().toLowerCase();
      if (TRUE_TEXT.has(text)) return true;
      if (FALSE_TEXT.has(text)) return false;
      return undefined;
    },
  };
}
