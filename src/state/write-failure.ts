/**
 * A write under `<config dir>/ccc/` that fails mid-session (disk full, file system gone
 * read-only) must not end the user's session: the caller keeps the old file as it was (atomic
 * writes guarantee that), goes on without this write, and calls `warnWriteFailed`, which says so
 * once per process on stderr however many writes fail after it.
 */
const SURVIVABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

let warned = false;
/** While a TUI owns the terminal, a line on stderr would land inside its screen: held for later. */
let holder: { show(line: string): void; held?: string } | undefined;

/**
 * From now until the returned release: a warning goes to `show` (interactive: an event, which
 * the terminal title and observers display) and reaches stderr only at release, once the
 * terminal is the user's again.
 */
export function holdWriteWarnings(show: (line: string) => void, stderr: NodeJS.WritableStream = process.stderr): () => void {
  const current: { show(line: string): void; held?: string } = { show };
  holder = current;
  return () => {
    if (holder === current) holder = undefined;
    if (current.held) stderr.write(current.held);
  };
}

/** True for the failures a session can go on without (the disk, not a bug). */
export function isSurvivableWriteError(error: unknown): boolean {
  return SURVIVABLE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

export function warnWriteFailed(file: string, error: unknown, stderr: NodeJS.WritableStream = process.stderr): void {
  if (warned) return;
  warned = true;
  const reason = (error as Error).message ?? String(error);
  const line =
    `ccc: WARN: could not write ${file} (${reason}); the existing file is kept as it was and the session goes on without saving ` +
    'its state and log there. Free some space, or choose another directory with CCC_CONFIG_DIR next time.\n';
  if (!holder) return void stderr.write(line);
  holder.held = line;
  holder.show(line.replace(/^ccc: /, '').trim());
}
