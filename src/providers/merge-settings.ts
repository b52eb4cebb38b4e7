/**
 * Layering of Claude Code settings objects (base `settings` of ccc.json, then a provider's
 * `settings`, then ccc's own per-launch hooks). Plain objects merge key by key, recursively; any
 * other value of the upper layer replaces the lower one. Keys are copied as data properties, so
 * a `__proto__` key coming from a user's JSON stays a key and never becomes a prototype.
 */
import { isPlainObject } from '../config/rules.js';
import type { JsonObject } from '../settings/json-file.js';

export function mergeSettings(lower: JsonObject, upper: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(lower)) define(result, key, value);
  for (const [key, value] of Object.entries(upper)) {
    const below = Object.prototype.hasOwnProperty.call(result, key) ? result[key] : undefined;
    define(result, key, isPlainObject(below) && isPlainObject(value) ? mergeSettings(below, value) : value);
  }
  return result;
}

function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
