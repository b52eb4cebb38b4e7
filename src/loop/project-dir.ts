/**
 * The project directory can disappear while a run goes on (removed, moved, its disk unmounted).
 * Then nothing is left to review or to work on: the run ends with a named error saying so, not
 * with a spawn error's stack or a reviewer failure that blames the claude executable.
 */
import fs from 'node:fs';
import { CccError } from '../errors.js';

/** Throws PROJECT_GONE when `cwd` is no longer a directory this process can enter. */
export function requireProjectDir(cwd: string, sessionId?: string): void {
  let why: string | undefined;
  try {
    if (!fs.statSync(cwd).isDirectory()) why = 'is no longer a directory';
    else fs.accessSync(cwd, fs.constants.R_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    why = code === 'ENOENT' || code === 'ENOTDIR' ? 'is gone (removed or moved during the run)' : `cannot be read (${code ?? String(error)})`;
  }
  if (why === undefined) return;
  const resume = sessionId
    ? ` The session is saved: restore the directory and continue it with \`ccc --supervisor -p "<task>" -- --resume ${sessionId}\`.`
    : '';
  throw new CccError('PROJECT_GONE', `the project directory ${cwd} ${why}; there is nothing left to work on or review.${resume}`, {
    data: { cwd, sessionId },
  });
}

/** A spawn that failed because its working directory vanished (child-process.ts marks it CWD_MISSING). */
export function isProjectGone(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'CWD_MISSING';
}
