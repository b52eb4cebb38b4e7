/** Reading a workflow file (kanban, task, role prompt) with the reason it failed in plain words. */
import type { CccError } from '../errors.js';
import { readUserFile } from '../user-file.js';
import type { FileRef } from './kanban-file.js';

/**
 * `fail` turns "does not exist" / "is a directory, not a file" / "is a FIFO, not a file" /
 * "cannot be read (…)" into the caller's error; what the path is gets checked before it is opened.
 */
export async function readText(ref: FileRef, fail: (problem: string, cause: unknown) => CccError): Promise<string> {
  const read = await readUserFile(ref.path);
  if (read.ok) return read.text;
  const { problem } = read;
  const words =
    problem.kind === 'missing'
      ? 'does not exist'
      : problem.kind === 'not-a-file'
        ? `is ${problem.what}, not a file`
        : problem.message.slice(ref.path.length + 1);
  throw fail(words, problem.kind === 'unreadable' ? problem.cause : undefined);
}
