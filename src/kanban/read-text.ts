/** Reading a workflow file (kanban, task, role prompt) with the reason it failed in plain words. */
import type { CccError } from '../errors.js';
import { readUserFile } from '../user-file.js';

/**
 * `fail` turns "does not exist" / "is a directory, not a file" / "is a FIFO, not a file" /
 * "cannot be read (…)" / "resolves to …, outside …" into the caller's error; what the path is gets
 * checked before it is opened, and where it really is (`within`) once it is.
 */
export async function readText(
  ref: { readonly path: string },
  fail: (problem: string, cause: unknown) => CccError,
  options: { within?: readonly string[] } = {},
): Promise<string> {
  const read = await readUserFile(ref.path, options);
  if (read.ok) return read.text;
  const { problem } = read;
  const words =
    problem.kind === 'missing'
      ? 'does not exist'
      : problem.kind === 'not-a-file'
        ? `is ${problem.what}, not a file`
        : problem.kind === 'outside'
          ? `resolves to ${problem.real}, outside ${options.within?.join(', ')}: its text goes to the model, so ccc reads it only from there ` +
            '(replace the link with the file, or, if you trust that place, add its directory to trusted_dirs in your global ccc.json)'
          : problem.message.slice(ref.path.length + 1);
  throw fail(words, problem.kind === 'unreadable' ? problem.cause : undefined);
}
