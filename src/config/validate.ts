/**
 * Validation, once, after merging, against the one zod schema. Every problem is reported (not
 * just the first), each naming the full key path, the bad value, what is allowed and where the
 * value came from.
 */
import { closestMatch } from 'leven';
import type { z } from 'zod';
import { CccError, type ConfigIssue } from '../errors.js';
import { envVariableFor } from './env-overrides.js';
import { allowedText, isPlainObject } from './rules.js';
import { configSchema, schemaAt, unwrap } from './schema.js';
import type { CccConfig, ConfigLayer, ResolvedConfig } from './types.js';
import { clip, jsonText } from '../value-text.js';
import { redactedUrl, SECRET_URL_KEYS } from './secret-url.js';

export interface ValidateInput {
  merged: Record<string, unknown>;
  sources: Record<string, ConfigLayer>;
  files: ResolvedConfig['files'];
}

export function validateConfig(input: ValidateInput): CccConfig {
  const parsed = configSchema.safeParse(input.merged);
  if (parsed.success) return withoutUnset(parsed.data);
  const issues = parsed.error.issues.flatMap((issue) => toIssues(issue, input.merged));
  const lines = [...new Set(issues.map((issue) => describeIssue(issue, input)))];
  throw new CccError('CONFIG_INVALID', lines.join('\n'), { data: { issues } });
}

/** zod keeps a key whose value a layer cleared with `null` (now undefined); unset means absent. */
function withoutUnset<T>(value: T): T {
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, withoutUnset(v)]);
  return Object.fromEntries(entries) as T;
}

/** A zod issue in ccc's words: an unknown key per key, else the bad value and the rule's text. */
function toIssues(issue: z.ZodIssue, merged: unknown): ConfigIssue[] {
  const parent = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const node = schemaAt(issue.path);
    const known = node === undefined ? [] : Object.keys(((unwrap(node) as z.AnyZodObject).shape as object | undefined) ?? {});
    return issue.keys.map((key) => ({ kind: 'unknown-key', path: parent === '' ? key : `${parent}.${key}`, parent, known }));
  }
  // A refinement says itself what it wanted (a permission rule and why this one is not).
  const allowed = issue.code === 'custom' && issue.message ? issue.message : allowedAt(issue.path);
  const value = valueAt(merged, issue.path);
  // A credential is never repeated, not even in the error that says it is wrong.
  const shown = SECRET_URL_KEYS.has(parent) && typeof value === 'string' ? redactedUrl(value) : value;
  return [{ kind: 'value', path: parent, value: shown, allowed }];
}

/** The description of the nearest schema on the path that has one: "must be …". */
function allowedAt(path: ReadonlyArray<string | number>): string {
  for (let n = path.length; n >= 0; n--) {
    const node = schemaAt(path.slice(0, n));
    if (node?.description) return allowedText(node);
  }
  return 'a valid value';
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

/** `supervisor.checkers[1]`, `providers.x.env.A`. */
function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? key : `${text}.${key}`), '');
}

function describeIssue(issue: ConfigIssue, input: ValidateInput): string {
  const origin = describeOrigin(issue.path, input);
  if (issue.kind === 'value') {
    return `Invalid configuration: ${issue.path} = ${clip(jsonText(issue.value), 80, '...')} (from ${origin}): must be ${issue.allowed}.`;
  }
  const where = issue.parent === '' ? 'top-level keys' : `keys of ${issue.parent}`;
  const guess = closestMatch(lastKey(issue.path), issue.known, { maxDistance: 2 });
  const hint = guess === undefined ? '' : ` Did you mean ${issue.parent === '' ? guess : `${issue.parent}.${guess}`}?`;
  return `Invalid configuration: unknown key ${issue.path} (from ${origin}).${hint} Known ${where}: ${issue.known.join(', ')}.`;
}

/** The layer of the nearest recorded path: `a.b[2].c` is looked up as `a.b.c`, `a.b`, `a`. */
export function describeOrigin(path: string, input: Pick<ValidateInput, 'sources' | 'files'>): string {
  const keys = path.replace(/\[\d+\]/g, '').split('.');
  for (let n = keys.length; n > 0; n--) {
    const candidate = keys.slice(0, n).join('.');
    const layer = input.sources[candidate];
    if (layer !== undefined) return describeLayer(layer, candidate, input.files);
  }
  // A key below a leaf of some layer (e.g. `supervisor.x` when a layer set `supervisor` to 5):
  // look for any recorded path underneath instead.
  const below = Object.keys(input.sources).find((p) => p.startsWith(`${keys.join('.')}.`));
  return below === undefined ? 'unknown layer' : describeLayer(input.sources[below]!, below, input.files);
}

function describeLayer(layer: ConfigLayer, path: string, files: ResolvedConfig['files']): string {
  switch (layer) {
    case 'default':
      return 'built-in default';
    case 'global':
      return files.global ?? 'global config';
    case 'project':
      return files.project ?? 'project config';
    case 'env': {
      const variable = envVariableFor(path);
      return variable === undefined ? 'environment' : `environment variable ${variable}`;
    }
    case 'flag':
      return 'command-line flag';
  }
}

function lastKey(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}
