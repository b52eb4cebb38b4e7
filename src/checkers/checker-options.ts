/**
 * Validation of a built-in checker's options (`{ use: 'rule', … }`), once, when the pipeline is
 * built, against a zod schema whose every value rule is described by the "expected …" text: a
 * typo or a bad value is a PLUGIN_INVALID error (exit 2) naming the checker, the key, the value
 * and what is allowed, never a check that silently does nothing.
 */
import { z } from 'zod';
import { checkSeconds, schemaAt } from '../config/schema.js';
import { CccError } from '../errors.js';
import { jsonText } from '../value-text.js';

export function invalidOption(checker: string, key: string, value: unknown, allowed: string): CccError {
  return new CccError(
    'PLUGIN_INVALID',
    `Invalid option "${key}" of the ${checker} checker in supervisor.checkers: got ${jsonText(value)}; expected ${allowed}.`,
    { data: { checker, key, value } },
  );
}

/** A string with something in it besides white space. */
export const nonBlank = (allowed: string) =>
  z
    .string()
    .refine((text) => text.trim() !== '')
    .describe(allowed);

/** A list of non-blank strings; absent is empty. */
export const stringList = z.array(nonBlank('a non-empty string')).describe('a list of strings').default([]);

/** `name` (the checker's name in logs and events) and `timeout_seconds` (read by the pipeline; checked here so a bad value names its checker). */
export const commonOptions = {
  timeout_seconds: checkSeconds.optional(),
  name: nonBlank('a non-empty string').optional(),
};

/**
 * The options as `shape` reads them, unknown keys refused. The first problem is the error: an
 * unknown key before a bad value, values in the order of `shape`. A refinement's own message is
 * its "expected …" text (a regular expression and why it does not compile).
 */
export function parseCheckerOptions<Shape extends z.ZodRawShape>(
  checker: string,
  shape: Shape,
  raw: Record<string, unknown>,
  /** The keys as the error lists them, in the order the documentation gives them. */
  listed: readonly (keyof Shape & string)[] = Object.keys(shape),
): z.output<z.ZodObject<Shape>> {
  const schema = z.object(shape).strict();
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    throw invalidOption(checker, key, raw[key], `one of the keys ${listed.join(', ')} (this one is unknown)`);
  }
  const key = issue.path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text === '' ? part : `${text}.${part}`), '');
  throw invalidOption(
    checker,
    key,
    valueAt(raw, issue.path),
    issue.code === 'custom' && issue.params?.allowed ? String(issue.params.allowed) : allowedAt(schema, issue.path),
  );
}

/** The description of the nearest schema on the path that has one. */
function allowedAt(schema: z.ZodTypeAny, path: ReadonlyArray<string | number>): string {
  for (let n = path.length; n > 0; n--) {
    const description = schemaAt(path.slice(0, n), schema)?.description;
    if (description) return description;
  }
  return 'a valid value';
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}
