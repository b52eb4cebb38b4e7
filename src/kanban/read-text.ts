/** Reading a workflow file (kanban, task, role prompt) with the reason it failed in plain words. */
import fs from 'node:fs/promises';
import type { CccError } from '../errors.js';
import type { FileRef } from './kanban-file.js';

/** `fail` turns "does not exist" / "is a directory" / "cannot be read (…)" into the caller's error. */
export async function readText(ref: FileRef, fail: (problem: string, cause: unknown) => CccError): Promise<string> {
  try {
    return await fs.readFile(ref.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${(error as Error).message})`, error);
  }
}
