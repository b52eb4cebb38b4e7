/**
 * The user's terminal edge: raw mode, size, resize events, output with backpressure, and a
 * restore that puts everything back on every exit path (docs/design/byte-path.md, "Exit and terminal restore").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { TerminalSize } from './byte-path.js';
import { resetSequence } from './terminal-modes.js';

export interface UserTerminal {
  readonly isTTY: boolean;
  readonly input: Readable;
  size: () => TerminalSize;
  /** Calls `listener` at each size change until `signal` aborts. */
  onResize(listener: () => void, signal: AbortSignal): void;
  enterRaw(): void;
  /** Back to the mode the terminal had before the first `enterRaw`. */
  leaveRaw(): void;
  /** Writes agent output; false when the terminal is behind (wait for `onDrain`). */
  write(chunk: Buffer | string): boolean;
  /** Calls `listener` each time a write that was behind caught up, until `signal` aborts. */
  onDrain(listener: () => void, signal: AbortSignal): void;
}

/** The size of ccc's stdout (80×24 when it is not a terminal). */
export function stdoutSize(): TerminalSize {
  return { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
}

export function onStdoutResize(listener: () => void, signal: AbortSignal): void {
  listenUntil(process.stdout, 'resize', listener, signal);
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
      if (!stdin.isTTY) return;
      stdin.setRawMode(true);
      disableOutputProcessing();
    },
    // setRawMode(false) restores the termios libuv saved before the first change, opost included.
    leaveRaw: () => {
      if (stdin.isTTY) stdin.setRawMode(false);
    },
    write: (chunk) => stdout.write(chunk),
    onDrain: (listener, signal) => listenUntil(stdout, 'drain', listener, signal),
  };
}

function listenUntil(emitter: NodeJS.EventEmitter, name: string, listener: () => void, signal: AbortSignal): void {
  if (signal.aborted) return;
  emitter.on(name, listener);
  signal.addEventListener('abort', () => emitter.off(name, listener), { once: true });
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
