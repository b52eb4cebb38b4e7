/**
 * Dotted key paths (`supervisor.max_iterations`) over plain config objects: how sources are
 * keyed, how env overrides address their target, and how `ccc config` lists values.
 */
import type { CccConfig } from './types.js';
import { isPlainObject } from './rules.js';

/**
 * The key paths of CccConfig down to its leaves. Arrays and open records (`providers`,
 * `settings`) end a path: a typed table entry can target them as a whole, never inside them.
 */
export type ConfigKeyPath = KeyPaths<CccConfig>;

type KeyPaths<T> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[]
    ? K
    : NonNullable<T[K]> extends object
      ? string extends keyof NonNullable<T[K]>
        ? K
        : `${K}.${KeyPaths<NonNullable<T[K]>>}`
      : K;
}[keyof T & string];

/** The type of the value at a key path. */
export type PathValue<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? PathValue<NonNullable<T[Head]>, Rest>
    : never
  : P extends keyof T
    ? NonNullable<T[P]>
    : never;

/** Reads the value at a dotted path, or at a list of keys (for keys that themselves contain dots). */
export function getPath(root: unknown, path: string | readonly string[]): unknown {
  let node = root;
  for (const key of typeof path === 'string' ? path.split('.') : path) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Sets a value, creating intermediate objects. Own-property writes only (no `__proto__` tricks). */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const next = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    if (isPlainObject(next)) {
      node = next;
    } else {
      const created: Record<string, unknown> = {};
      defineOwn(node, key, created);
      node = created;
    }
  }
  defineOwn(node, keys[keys.length - 1]!, value);
}

/** `obj[key] = value` that also works for the key `__proto__` without touching the prototype. */
export function defineOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Every leaf of a config object as its list of keys, in key order. Leaves are non-objects,
 * arrays and empty objects (so `providers = {}` still shows up). Keys holding `undefined` are
 * skipped. Lists of keys rather than dotted strings: keys inside `settings` may contain dots.
 */
export function leafKeys(root: Record<string, unknown>, prefix: readonly string[] = []): string[][] {
  const out: string[][] = [];
  for (const [key, value] of Object.entries(root)) {
    if (value === undefined) continue;
    const keys = [...prefix, key];
    if (isPlainObject(value) && Object.keys(value).length > 0) out.push(...leafKeys(value, keys));
    else out.push(keys);
  }
  return out;
}
