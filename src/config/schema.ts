/**
 * The shape of a valid configuration, as small composable checks. Each check returns the
 * normalized value (optional keys written as `null` become unset) and reports problems with the
 * full key path. `providers`, `settings` and checker options are open: unknown keys pass there,
 * because they belong to Claude Code or to a plugin, not to ccc.
 */
import {
  anyObject,
  boolean,
  integer,
  isPlainObject,
  nonEmptyString,
  nonEmptyStringList,
  numberAbove,
  oneOf,
  stringList,
  stringMap,
  type Rule,
} from './rules.js';
import { parseAllowRule } from '../checkers/reviewer/reviewer-policy.js';

export type Issue =
  | { kind: 'value'; path: string; value: unknown; allowed: string }
  | { kind: 'unknown-key'; path: string; parent: string; known: string[] };

export type Check = (value: unknown, path: string, report: (issue: Issue) => void) => unknown;

export function leaf(rule: Rule): Check {
  return (value, path, report) => {
    if (!rule.test(value)) report({ kind: 'value', path, value, allowed: rule.allowed });
    return value;
  };
}

/** Absent or `null` means unset; a higher layer can write `null` to clear a lower layer's value. */
export function optional(check: Check): Check {
  return (value, path, report) => (value === undefined || value === null ? undefined : check(value, path, report));
}

export function object(fields: Record<string, Check>): Check {
  const known = Object.keys(fields);
  return (value, path, report) => {
    if (!isPlainObject(value)) {
      report({ kind: 'value', path, value, allowed: `an object with the keys ${known.join(', ')}` });
      return value;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (!Object.prototype.hasOwnProperty.call(fields, key)) report({ kind: 'unknown-key', path: join(path, key), parent: path, known });
    }
    for (const [key, check] of Object.entries(fields)) {
      const checked = check(Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined, join(path, key), report);
      if (checked !== undefined) out[key] = checked;
    }
    return out;
  };
}

/** An open object whose every value passes `check` (provider names are the user's). */
export function record(check: Check): Check {
  return (value, path, report) => {
    if (!isPlainObject(value)) {
      report({ kind: 'value', path, value, allowed: 'an object' });
      return value;
    }
    for (const [key, item] of Object.entries(value)) check(item, join(path, key), report);
    return value;
  };
}

const checkerDeclaration: Check = (value, path, report) => {
  const ok =
    (typeof value === 'string' && value.length > 0) ||
    (isPlainObject(value) && typeof value.use === 'string' && value.use.length > 0);
  if (!ok) report({ kind: 'value', path, value, allowed: 'a checker name, or an object { use: "<name>", ...options }' });
  return value;
};

const checkerList: Check = (value, path, report) => {
  if (!Array.isArray(value) || value.length === 0) {
    report({ kind: 'value', path, value, allowed: 'a non-empty list of checker names or { use, ...options } objects' });
    return value;
  }
  value.forEach((item, i) => checkerDeclaration(item, `${path}[${i}]`, report));
  return value;
};

/** A provider: its `env` must be strings (they become environment variables); other keys are free. */
const provider: Check = (value, path, report) => {
  if (!isPlainObject(value)) {
    report({ kind: 'value', path, value, allowed: 'an object { env?, settings? }' });
    return value;
  }
  if (value.env !== undefined) leaf(stringMap)(value.env, join(path, 'env'), report);
  if (value.settings !== undefined) leaf(anyObject)(value.settings, join(path, 'settings'), report);
  return value;
};

const port = leaf(integer(0, 65535));

/** `supervisor.reviewer.allow`: Claude Code permission rules, each one readable. */
const allowRules: Check = (value, path, report) => {
  if (!Array.isArray(value)) {
    report({ kind: 'value', path, value, allowed: 'a list of permission rules such as "Bash(make check)", "Bash(npm run lint:*)", "Edit"' });
    return value;
  }
  value.forEach((rule, i) => {
    const parsed = typeof rule === 'string' ? parseAllowRule(rule) : { ok: false as const, reason: 'a string' };
    if (!parsed.ok) report({ kind: 'value', path: `${path}[${i}]`, value: rule, allowed: `a permission rule: ${parsed.reason}` });
  });
  return value;
};

export const configSchema: Check = object({
  claude: object({ command: leaf(nonEmptyString), args: leaf(stringList) }),
  supervisor: object({
    max_iterations: leaf(integer(1)),
    timeout_seconds: leaf(numberAbove(0)),
    log_level: leaf(oneOf(['debug', 'info', 'warn', 'error'])),
    prompt_path: leaf(nonEmptyString),
    completion_marker: leaf(nonEmptyString),
    checkers: checkerList,
    no_progress_limit: leaf(integer(1)),
    max_cost_usd: optional(leaf(numberAbove(0))),
    reviewer: object({ allow: allowRules, model: optional(leaf(nonEmptyString)) }),
  }),
  observer: object({
    host: leaf(nonEmptyString),
    port,
    token: optional(leaf(nonEmptyString)),
    allow_input: leaf(boolean),
    scrollback_bytes: leaf(integer(0)),
    max_observers: leaf(integer(1)),
  }),
  mcp: object({
    enabled: leaf(boolean),
    max_restart_attempts: leaf(integer(0)),
    restart_delay_ms: leaf(integer(0)),
    health_interval_ms: leaf(integer(1)),
    health_timeout_ms: leaf(integer(1)),
    health_failures: leaf(integer(1)),
    queue_timeout_ms: leaf(integer(0)),
    http_port: port,
  }),
  kanban: object({ max_retries: leaf(integer(0)), roles_dir: leaf(nonEmptyString) }),
  plugins: leaf(nonEmptyStringList),
  current_provider: optional(leaf(nonEmptyString)),
  providers: record(provider),
  settings: leaf(anyObject),
});

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
