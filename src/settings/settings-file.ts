/**
 * The file a user's `--settings <file>` names, read for ccc to merge its hooks in. Looked at before
 * it is opened (a FIFO would hang ccc, a directory or device is never meant), and refused past
 * what one argument to claude can carry, since the merged settings travel as one.
 */
import { CccError } from '../errors.js';
import { ARGUMENT_LIMIT_BYTES, readUserFileSync } from '../user-file.js';

export function readSettingsFile(file: string): string {
  const read = readUserFileSync(file, { maxBytes: ARGUMENT_LIMIT_BYTES });
  if (read.ok) return read.text;
  const limit =
    read.problem.kind === 'too-large' ? ` (the settings reach claude as one argument, and Linux takes at most ${ARGUMENT_LIMIT_BYTES} bytes in one)` : '';
  throw new CccError('USAGE', `--settings ${read.problem.message}${limit}. Give a JSON object or the path of a JSON file.`, { data: { file } });
}
