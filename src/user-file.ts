/**
 * Reading a text file a user pointed ccc at (SUPERVISOR.md, a config file, a kanban board or task)
 * after looking at what it is. Opening a FIFO blocks until a writer comes, so a FIFO where a file
 * was expected would hang ccc silently; a directory, a socket or a device is never what the user
 * meant either. Each is named before any open, and so is a file too large for claude to take.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { errorText } from './errors.js';
import { insideAny, openedPath, realRoots } from './file-bounds.js';

/**
 * claude -p refuses piped stdin past 10 MiB ("piped stdin input exceeds 10MB", counted in UTF-16
 * characters; bytes are never fewer): pinned in test/claude/stdin-limit.test.ts. A reviewer's
 * instructions travel on that stdin, so a larger file can never be sent.
 */
export const CLAUDE_STDIN_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN) with E2BIG at exec. The
 * user's `--settings` file reaches claude merged into one `--settings <json>` argument, so a file
 * past this could only fail at claude's start.
 */
export const ARGUMENT_LIMIT_BYTES = 128 * 1024;

/** What stands at `file` when it exists and is not a regular file ("a FIFO", "a directory", …); else undefined. */
export function nonFileAt(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  return kindOfEntry(stat);
}

function kindOfEntry(stat: fs.Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

export type UserFileProblem =
  | { kind: 'missing'; message: string }
  | { kind: 'not-a-file'; what: string; message: string }
  | { kind: 'too-large'; bytes: number; maxBytes: number; message: string }
  | { kind: 'unreadable'; message: string; cause: unknown }
  | { kind: 'outside'; real: string; message: string };

/** `real`: where the file really is (symlinks and `..` resolved), as it was opened. */
export type UserFileRead = { ok: true; text: string; real: string } | { ok: false; problem: UserFileProblem };

export interface UserFileOptions {
  /** Larger is a 'too-large' problem. */
  maxBytes?: number;
  /** Directories the file must really be in, as opened: anywhere else is an 'outside' problem and nothing is read. */
  within?: readonly string[];
}

/** Why `file` cannot be read as a text file, or undefined when it can (stat follows symlinks). */
function problemOf(file: string, stat: fs.Stats, maxBytes: number | undefined): UserFileProblem | undefined {
  const what = kindOfEntry(stat);
  if (what !== undefined) return { kind: 'not-a-file', what, message: `${file} is ${what}, not a file` };
  if (maxBytes !== undefined && stat.size > maxBytes) {
    return { kind: 'too-large', bytes: stat.size, maxBytes, message: `${file} is ${stat.size} bytes, more than the ${maxBytes} bytes allowed` };
  }
  return undefined;
}

function failure(file: string, error: unknown): UserFileProblem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', message: `${file} does not exist` };
  return { kind: 'unreadable', message: `${file} cannot be read (${errorText(error)})`, cause: error };
}

/** Reads `file` as UTF-8 when it is a regular file no larger than `maxBytes`, inside `within` when given. */
export function readUserFileSync(file: string, options: UserFileOptions = {}): UserFileRead {
  try {
    const problem = problemOf(file, fs.statSync(file), options.maxBytes);
    if (problem) return { ok: false, problem };
    const fd = fs.openSync(file, 'r');
    try {
      const real = openedPath(fd, file);
      const outside = outsideProblem(file, real, options.within);
      return outside ? { ok: false, problem: outside } : { ok: true, text: fs.readFileSync(fd, 'utf8'), real };
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return { ok: false, problem: failure(file, error) };
  }
}

/** The asynchronous twin of readUserFileSync. */
export async function readUserFile(file: string, options: UserFileOptions = {}): Promise<UserFileRead> {
  try {
    const problem = problemOf(file, await fsp.stat(file), options.maxBytes);
    if (problem) return { ok: false, problem };
    const handle = await fsp.open(file, 'r');
    try {
      const real = openedPath(handle.fd, file);
      const outside = outsideProblem(file, real, options.within);
      return outside ? { ok: false, problem: outside } : { ok: true, text: await handle.readFile('utf8'), real };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, problem: failure(file, error) };
  }
}

function outsideProblem(file: string, real: string, within: readonly string[] | undefined): UserFileProblem | undefined {
  if (within === undefined || insideAny(realRoots(within), real)) return undefined;
  const how = real === file ? '' : ` (it resolves to ${real})`;
  return { kind: 'outside', real, message: `${file} is outside ${within.length === 1 ? within[0] : within.join(', ')}${how}` };
}
