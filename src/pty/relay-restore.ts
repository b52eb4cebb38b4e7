/**
 * The user's terminal as it was before the relay took it, for the one case the relay cannot put it
 * back itself: it was killed (SIGKILL) and reported no exit. The mode is read with `stty -g` before
 * the spawn, because the relay sets raw mode as it starts. process.stdin is never touched: creating
 * its stream would compete with the relay for the keys.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import tty from 'node:tty';
import { writeResetSync } from './terminal.js';

export interface TerminalRestore {
  /** Puts the mode back and resets what the agent may have left on (the alternate screen with `altScreen`). */
  restore(altScreen: boolean): void;
}

/** Reads the terminal's mode now (nothing to read when stdin is not a terminal). */
export function saveTerminal(): TerminalRestore {
  const savedMode = tty.isatty(0) ? saveTerminalMode() : undefined;
  return {
    restore(altScreen) {
      if (savedMode) restoreTerminalMode(savedMode);
      if (tty.isatty(1)) writeResetSync(1, altScreen);
    },
  };
}

/** Says on the terminal why the session ended (the log has it too); stderr may be gone already. */
export function writeStderrSync(text: string): void {
  try {
    fs.writeSync(2, text);
  } catch {
    // stderr is gone; the log has it
  }
}

/** `stty -g` of the user's terminal. */
function saveTerminalMode(): string | undefined {
  const saved = spawnSync('stty', ['-g'], { stdio: ['inherit', 'pipe', 'ignore'], timeout: 2000, encoding: 'utf8' });
  return saved.status === 0 ? saved.stdout.trim() : undefined;
}

function restoreTerminalMode(mode: string): void {
  spawnSync('stty', [mode], { stdio: ['inherit', 'ignore', 'ignore'], timeout: 2000 });
}
