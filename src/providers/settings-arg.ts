/**
 * Gives claude the launch's settings as one `--settings <json>` argument. When the user passed
 * their own `--settings` (JSON or a file), theirs is layered over ccc.json's (the more specific,
 * per-launch choice wins) and the two become one argument: claude reads only one.
 */
import path from 'node:path';
import { readSettingsFile } from '../settings/settings-file.js';
import { CccError } from '../errors.js';
import { isPlainObject } from '../config/rules.js';
import type { JsonObject } from '../settings/json-file.js';
import { mergeSettings } from './merge-settings.js';

export function withSettingsArg(claudeArgs: readonly string[], settings: JsonObject, cwd: string): string[] {
  const args = [...claudeArgs];
  const at = args.findIndex((a) => a === '--settings' || a.startsWith('--settings='));
  if (at === -1) return Object.keys(settings).length === 0 ? args : ['--settings', JSON.stringify(settings), ...args];
  if (Object.keys(settings).length === 0) return args;
  const inline = args[at]!.startsWith('--settings=');
  const value = inline ? args[at]!.slice('--settings='.length) : args[at + 1];
  if (value === undefined) throw new CccError('USAGE', '--settings needs a value: a JSON object or the path of a JSON file.');
  args.splice(at, inline ? 1 : 2, '--settings', JSON.stringify(mergeSettings(settings, readSettingsValue(value, cwd))));
  return args;
}

function readSettingsValue(value: string, cwd: string): JsonObject {
  const text = value.trim().startsWith('{') ? value : readSettingsFile(path.resolve(cwd, value));
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw new CccError('USAGE', `--settings ${value}: not a JSON object. Give a JSON object or the path of a JSON file.`);
}
