/**
 * The file a user's `--settings <file>` names. Read for ccc to merge its hooks in (looked at before
 * it is opened: a FIFO would hang ccc, a directory or device is never meant; refused past what one
 * argument to claude can carry, since the merged settings travel as one), or, where claude reads it
 * itself (headless), looked at before claude starts, so that a run refused for it never starts one.
 */
import path from 'node:path';
import { CccError } from '../errors.js';
import { ARGUMENT_LIMIT_BYTES, nonFileAt, readUserFileSync } from '../user-file.js';

export function readSettingsFile(file: string): string {
  const read = readUserFileSync(file, { maxBytes: ARGUMENT_LIMIT_BYTES });
  if (read.ok) return read.text;
  const limit =
    read.problem.kind === 'too-large' ? ` (the settings reach claude as one argument, and Linux takes at most ${ARGUMENT_LIMIT_BYTES} bytes in one)` : '';
  throw new CccError('USAGE', `--settings ${read.problem.message}${limit}. Give a JSON object or the path of a JSON file.`, { data: { file } });
}

/** Every `--settings` path in claude's arguments that is there and not a regular file: a USAGE error naming it. */
export function checkSettingsPaths(claudeArgs: readonly string[], cwd: string): void {
  for (const value of settingsValues(claudeArgs)) {
    if (value.trim().startsWith('{')) continue; // inline JSON
    const file = path.resolve(cwd, value);
    const what = nonFileAt(file);
    if (what) throw new CccError('USAGE', `--settings ${file} is ${what}, not a file. Give a JSON object or the path of a JSON file.`, { data: { file } });
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
