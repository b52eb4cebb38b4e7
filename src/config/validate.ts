/**
 * Validation, once, after merging. Every problem is reported (not just the first), each naming
 * the full key path, the bad value, what is allowed and where the value came from.
 */
import { CccError } from '../errors.js';
import { envVariableFor } from './env-overrides.js';
import { configSchema, type Issue } from './schema.js';
import type { CccConfig, ConfigLayer, ResolvedConfig } from './types.js';

export interface ValidateInput {
  merged: Record<string, unknown>;
  sources: Record<string, ConfigLayer>;
  files: ResolvedConfig['files'];
}

export function validateConfig(input: ValidateInput): CccConfig {
  const issues: Issue[] = [];
  const config = configSchema(input.merged, '', (issue) => issues.push(issue));
  if (issues.length > 0) {
    const lines = issues.map((issue) => describeIssue(issue, input));
    throw new CccError('CONFIG_INVALID', lines.join('\n'), { data: { issues } });
  }
  return config as CccConfig;
}

function describeIssue(issue: Issue, input: ValidateInput): string {
  const origin = describeOrigin(issue.path, input);
  if (issue.kind === 'value') {
    return `Invalid configuration: ${issue.path} = ${showValue(issue.value)} (from ${origin}): must be ${issue.allowed}.`;
  }
  const where = issue.parent === '' ? 'top-level keys' : `keys of ${issue.parent}`;
  const guess = closest(lastKey(issue.path), issue.known);
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

export function describeLayer(layer: ConfigLayer, path: string, files: ResolvedConfig['files']): string {
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

function showValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function lastKey(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** A known key within edit distance 2 of a typo, if any. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}
