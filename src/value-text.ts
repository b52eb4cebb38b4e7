/**
 * How a value is shown in an error message or a log line, written once: as JSON, clipped, or by
 * its kind ("got an array"). A leaf: the config, the checkers, the log format and the kanban file
 * all use it.
 */

/**
 * `value` as JSON; String() where JSON has no text (undefined, a function), would say something
 * else (`Infinity` and `NaN`, which JSON writes as `null`: a config's `1e309` parses to Infinity)
 * or fails (a cycle, a BigInt).
 */
export function jsonText(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `text` in at most `max` characters, ending in `mark` when it was cut. */
export function clip(text: string, max: number, mark = '…'): string {
  return text.length > max ? `${text.slice(0, max - mark.length)}${mark}` : text;
}

/**
 * What a value is, for "expected …, got …": `null`, `undefined`, `an array`, `a function`,
 * `an object` (or `objectWord`), else its type and JSON (`number 42`, `string "x"`).
 */
export function kindOf(value: unknown, objectWord = 'an object'): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return objectWord;
  return `${typeof value} ${jsonText(value)}`;
}
