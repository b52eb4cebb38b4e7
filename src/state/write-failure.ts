/**
 * A write under `<config dir>/ccc/` that fails mid-session (disk full, file system gone
 * read-only, the directory gone) must not end the user's session: the caller keeps the old file
 * as it was (atomic writes guarantee that), goes on without this write (the session state in
 * memory), and calls `warnWriteFailed`, which says so once per process on stderr however many
 * writes fail after it.
 */
import path from 'node:path';
import { errorText } from '../errors.js';

const SURVIVABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'ENOENT']);

let warned = false;
/** While a TUI owns the terminal, a line on stderr would land inside its screen: held for later. */
let holder: { show(line: string): void; held: string[] } | undefined;

/**
 * From now until the returned release: a warning goes to `show` (interactive: an event, which
 * the terminal title and observers display) and reaches stderr only at release, once the
 * terminal is the user's again.
 */
export function holdWriteWarnings(show: (line: string) => void, stderr: NodeJS.WritableStream = process.stderr): () => void {
  const current: { show(line: string): void; held: string[] } = { show, held: [] };
  holder = current;
  return () => {
    if (holder === current) holder = undefined;
    for (const line of current.held) stderr.write(line);
  };
}

/** True for the failures a session can go on without (the disk, not a bug). */
export function isSurvivableWriteError(error: unknown): boolean {
  return SURVIVABLE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

export function warnWriteFailed(file: string, error: unknown, stderr: NodeJS.WritableStream = process.stderr): void {
  if (warned) return;
  warned = true;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = errorText(error);
  const fix = code === 'ENOSPC' || code === 'EDQUOT' ? 'Free some space' : code === 'EROFS' ? 'Make it writable' : 'Check the directory';
  showWarning(
    `ccc: WARN: cannot write in ${path.dirname(file)} (${reason}); the session goes on with its state in memory, without saving ` +
      `its state and log there; the files already there are kept as they were. ${fix}, or choose another directory with CCC_CONFIG_DIR next time.\n`,
    stderr,
  );
}

/** A warning for the user: on stderr now, or shown to the holder and printed when the terminal is back. */
export function showWarning(line: string, stderr: NodeJS.WritableStream = process.stderr): void {
  if (!holder) return void stderr.write(line);
  holder.held.push(line);
  holder.show(line.replace(/^ccc: /, '').trim());
}
