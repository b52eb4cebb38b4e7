/**
 * The user's terminal edge: raw mode, size, resize events, output with backpressure, and a
 * restore that puts everything back on every exit path (docs/byte-path.md, "Exit and terminal restore").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Undo } from './byte-path.js';
import { resetSequence } from './terminal-modes.js';

export interface UserTerminal {
  readonly isTTY: boolean;
  readonly input: Readable;
  size(): { cols: number; rows: number };
  onResize(listener: () => void): Undo;
  /** Enters raw mode; the undo restores the mode the terminal had before. */
  enterRaw(): Undo;
  /** Writes agent output; false when the terminal is behind (wait for `onDrain`). */
  write(chunk: Buffer | string): boolean;
  onDrain(listener: () => void): Undo;
}

/** The size of ccc's stdout (80×24 when it is not a terminal). */
export function stdoutSize(): { cols: number; rows: number } {
  return { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
}

export function onStdoutResize(listener: () => void): Undo {
  process.stdout.on('resize', listener);
  return () => void process.stdout.off('resize', listener);
}

export function processTerminal(): UserTerminal {
  const stdin = process.stdin;
  const stdout = process.stdout;
  return {
    isTTY: !!stdin.isTTY && !!stdout.isTTY,
    input: stdin,
    size: stdoutSize,
    onResize: onStdoutResize,
    enterRaw: () => {
      if (!stdin.isTTY) return () => {};
      stdin.setRawMode(true);
      disableOutputProcessing();
      // setRawMode(false) restores the termios libuv saved before the first change, opost included.
      return () => {
        if (stdin.isTTY) stdin.setRawMode(false);
      };
    },
    write: (chunk) => stdout.write(chunk),
    onDrain: (listener) => {
      stdout.on('drain', listener);
      return () => stdout.off('drain', listener);
    },
  };
}

/**
 * libuv's raw mode keeps ONLCR on, so every "\n" the agent writes would reach the user's terminal
 * as "\r\n" and "\r\n" as "\r\r\n": not byte-transparent. A real raw mode (cfmakeraw, as
 * script(1) uses) turns output processing off; Node has no termios API, so stty does it on our
 * stdin. If stty is missing the session still works, only less transparent.
 */
function disableOutputProcessing(): void {
  try {
    spawnSync('stty', ['-opost'], { stdio: ['inherit', 'ignore', 'ignore'], timeout: 2000 });
  } catch {
    // no stty: keep libuv's raw mode
  }
}

/** Writes the mode resets synchronously: used on exit paths where the event loop may not turn again. */
export function writeResetSync(fd: number, altScreenActive: boolean): void {
  try {
    fs.writeSync(fd, resetSequence(altScreenActive));
  } catch {
    // the terminal is gone; nothing left to restore
  }
}

