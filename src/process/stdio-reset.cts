/**
 * Node puts the terminal modes of fds 0-2 back when it exits (its ResetStdio), and before Node
 * 22.17 it aborts there when the terminal is gone (`node::ResetStdio() … Assertion failed`,
 * SIGABRT, exit 134 and a native stack: the closed terminal window, the ended ssh session), even
 * after a run that ended well. It skips an fd that is closed, so at exit the fds whose terminal is
 * gone are closed first: nothing is left on them to put back, and nobody to read it.
 */
import fs from 'node:fs';
import { isatty } from 'node:tty';

const STDIO = [0, 1, 2] as const;
let wasTerminal: readonly boolean[] | undefined;

/** At start: notes which of fds 0-2 are terminals, and closes the gone ones when the process exits. */
export function guardStdioReset(): void {
  if (wasTerminal) return;
  wasTerminal = STDIO.map((fd) => isatty(fd));
  if (wasTerminal.some(Boolean)) process.on('exit', closeGoneTerminals);
}

/** Closes each of fds 0-2 that was a terminal and is one no more (hung up); for an exit no 'exit' listener sees (a signal raised again). */
export function closeGoneTerminals(): void {
  STDIO.forEach((fd) => {
    if (!wasTerminal?.[fd] || isatty(fd)) return;
    try {
      fs.closeSync(fd);
    } catch {
      // closed already
    }
  });
}
