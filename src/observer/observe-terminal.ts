/**
 * The terminal `ccc observe` draws on. The mirrored session goes to stdout byte for byte; status
 * lines go to stderr with a `[ccc]` prefix. On a tty, stdin is put in raw mode so that keys (and
 * the mouse reports a mirrored TUI may switch on) are swallowed instead of echoed; Ctrl-C or
 * Ctrl-D quits. `restore()` undoes all of it, including modes the mirrored program turned on.
 */
import { inertText } from '../pty/inert-text.js';

export type QuitReason = 'keyboard' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface ObserveTerminal {
  writeScreen(data: Buffer): void;
  /** Before a fresh snapshot is drawn; nothing when stdout is not a terminal. */
  clearScreen(): void;
  status(line: string): void;
  onQuit(listener: (reason: QuitReason) => void): () => void;
  restore(): void;
}

/** Modes a TUI may leave on: attributes, cursor, alternate screen, mouse, focus, paste, keypad. */
const RESET_MODES =
  '\x1b[0m\x1b[?25h\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>';
const CTRL_C = 0x03;
const CTRL_D = 0x04;

export function processTerminal(stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): ObserveTerminal {
  const listeners = new Set<(reason: QuitReason) => void>();
  const quit = (reason: QuitReason) => {
    for (const listener of listeners) listener(reason);
  };
  const onKey = (data: Buffer) => {
    if (data.includes(CTRL_C) || data.includes(CTRL_D)) quit('keyboard');
  };
  const onSignal = (signal: NodeJS.Signals) => quit(signal as QuitReason);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const raw = stdin.isTTY === true;
  // Raw mode turns off the tty's newline translation; stderr usually shares that tty.
  const eol = raw && stderr.isTTY ? '\r\n' : '\n';

  for (const signal of signals) process.on(signal, onSignal);
  if (raw) {
    stdin.setRawMode(true);
    stdin.on('data', onKey);
    stdin.resume();
  }
  let restored = false;

  return {
    writeScreen: (data) => void stdout.write(data),
    clearScreen: () => {
      if (stdout.isTTY) stdout.write('\x1b[H\x1b[2J\x1b[3J');
    },
    // Event lines carry a model's feedback: its escape sequences must not reach this terminal.
    status: (line) => void stderr.write(`[ccc] ${inertText(line.replace(/\r\n/g, '\n')).replace(/\n/g, eol)}${eol}`),
    onQuit(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    restore() {
      if (restored) return;
      restored = true;
      for (const signal of signals) process.off(signal, onSignal);
      if (raw) {
        stdin.off('data', onKey);
        stdin.setRawMode(false);
        stdin.pause();
      }
      if (stdout.isTTY) stdout.write(`${RESET_MODES}\r\n`);
    },
  };
}
