/**
 * Gives claude the launch's settings as one `--settings <json>` argument. When the user passed
 * their own `--settings` (JSON or a file), theirs is layered over ccc.json's (the more specific,
 * per-launch choice wins) and the two become one argument: claude reads only one.
 */
import { userSettingsArg } from '../settings/settings-file.js';
import type { JsonObject } from '../settings/json-file.js';
import { mergeSettings } from './merge-settings.js';

export function withSettingsArg(claudeArgs: readonly string[], settings: JsonObject, cwd: string): string[] {
  const args = [...claudeArgs];
  if (Object.keys(settings).length === 0) return args;
  const theirs = userSettingsArg(args, cwd);
  if (!theirs) return ['--settings', JSON.stringify(settings), ...args];
  args.splice(theirs.at, theirs.words, '--settings', JSON.stringify(mergeSettings(settings, theirs.value)));
  return args;
}
