/**
 * The user's own `--settings` among claude's arguments: a JSON object, or the file a path names.
 * Read in one place for every launch that merges its settings in (a provider's, a supervised
 * session's, the reviewer's), so one mistake gets one message. The file is looked at before it is
 * opened (a FIFO would hang ccc, a directory or device is never meant) and refused past what one
 * argument to claude can carry, since the merged settings travel as one; where claude reads it
 * itself (headless), it is looked at before claude starts, so that a run refused for it never starts one.
 */
import path from 'node:path';
import { CccError } from '../errors.js';
import { ARGUMENT_LIMIT_BYTES, nonFileAt, readUserFileSync } from '../user-file.js';

/** Where a user's `--settings` is in claude's arguments, what it says, and how many words it takes. */
export interface UserSettingsArg {
  at: number;
  words: 1 | 2;
  value: Record<string, unknown>;
}

const GIVE = 'Give a JSON object or the path of a JSON file.';

/** The first `--settings` in `args` (`--settings <v>` or `--settings=<v>`), read; undefined without one. A USAGE error when it is no JSON object. */
export function userSettingsArg(args: readonly string[], cwd: string): UserSettingsArg | undefined {
  const at = args.findIndex((a) => a === '--settings' || a.startsWith('--settings='));
  if (at === -1) return undefined;
  const inline = args[at]!.startsWith('--settings=');
  const value = inline ? args[at]!.slice('--settings='.length) : args[at + 1];
  if (value === undefined) throw new CccError('USAGE', `--settings needs a value. ${GIVE}`, { data: { option: '--settings' } });
  const text = value.trim().startsWith('{') ? value : readSettingsFile(path.resolve(cwd, value));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // said below, as for any other value that is not an object
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CccError('USAGE', `--settings ${value}: not a JSON object. ${GIVE}`, { data: { option: '--settings' } });
  return { at, words: inline ? 1 : 2, value: parsed as Record<string, unknown> };
}

function readSettingsFile(file: string): string {
  const read = readUserFileSync(file, { maxBytes: ARGUMENT_LIMIT_BYTES });
  if (read.ok) return read.text;
  const limit =
    read.problem.kind === 'too-large' ? ` (the settings reach claude as one argument, and Linux takes at most ${ARGUMENT_LIMIT_BYTES} bytes in one)` : '';
  throw new CccError('USAGE', `--settings ${read.problem.message}${limit}. ${GIVE}`, { data: { file } });
}

/** Every `--settings` path in claude's arguments that is there and not a regular file: a USAGE error naming it. */
export function checkSettingsPaths(claudeArgs: readonly string[], cwd: string): void {
  for (const value of settingsValues(claudeArgs)) {
    if (value.trim().startsWith('{')) continue; // inline JSON
    const file = path.resolve(cwd, value);
    const what = nonFileAt(file);
    if (what) throw new CccError('USAGE', `--settings ${file} is ${what}, not a file. ${GIVE}`, { data: { file } });
  }
}

function settingsValues(args: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, i) => {
    if (arg.startsWith('--settings=')) values.push(arg.slice('--settings='.length));
    else if (arg === '--settings' && args[i + 1] !== undefined) values.push(args[i + 1]!);
  });
  return values;
}
