/**
 * The terminal `ccc observe` draws on. The mirrored session goes to stdout byte for byte. When
 * stdout and stderr are one terminal, ccc's status goes to its reserved bottom row
 * (status-line.ts) so it never garbles the mirrored screen; otherwise status lines go to stderr
 * with a `[ccc]` prefix. On a tty, stdin is put in raw mode so that keys (and
 * the mouse reports a mirrored TUI may switch on) are swallowed instead of echoed; Ctrl-C or
 * Ctrl-D quits. `restore()` undoes all of it, including modes the mirrored program turned on.
 */
import { inertText } from '../pty/inert-text.js';
import { eventText, statusRowText, type Phase } from './event-text.js';
import type { ObserverEvent } from './protocol.js';
import { statusLineFor, type StatusLine } from './status-line.js';

export type QuitReason = 'keyboard' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface ObserveTerminal {
  writeScreen(data: Buffer): void;
  /** Before a fresh snapshot is drawn; nothing when stdout is not a terminal. */
  clearScreen(): void;
  status(line: string): void;
  /** A supervisor event: a line of its own on stderr, or the status row (phase · last event). */
  event(event: ObserverEvent): void;
  /** The session's terminal size, from its hello: where the mirror ends and the status goes. */
  sessionSize(cols: number, rows: number): void;
  onQuit(listener: (reason: QuitReason) => void): () => void;
  restore(): void;
}

/** Modes a TUI may leave on: attributes, cursor, alternate screen, mouse, focus, paste, keypad. */
const RESET_MODES = '\x1b[0m\x1b[?25h\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>';
const CTRL_C = 0x03;
const CTRL_D = 0x04;

export function processTerminal(
  stdin: NodeJS.ReadStream = process.stdin,
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): ObserveTerminal {
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
  // Until the session's size is known (its hello), and when stdout and stderr are not one
  // terminal, status lines go to stderr; then to the status row or title (status-line.ts).
  const tty = stdout.isTTY === true && stderr.isTTY === true;
  let statusLine: StatusLine | undefined;
  let sessionRows: number | undefined;
  let text = '';
  const place = () => {
    statusLine?.release();
    statusLine = tty && sessionRows !== undefined ? statusLineFor(stdout, sessionRows) : undefined;
    if (text !== '') statusLine?.show(text);
  };
  const onResize = () => place();
  if (tty) stdout.on('resize', onResize);
  const status = (raw: string) => {
    // Status and event lines carry a model's feedback: its escape sequences must not reach this terminal.
    const line = inertText(raw.replace(/\r\n/g, '\n'));
    text = line;
    if (statusLine) statusLine.show(line);
    else stderr.write(`[ccc] ${line.replace(/\n/g, eol)}${eol}`);
  };
  let phase: Phase | undefined;
  let last = '';

  return {
    writeScreen: (data) => {
      stdout.write(data);
      statusLine?.afterScreen(data);
    },
    clearScreen: () => {
      if (!stdout.isTTY) return;
      const clear = Buffer.from('\x1b[H\x1b[2J\x1b[3J');
      stdout.write(clear);
      statusLine?.afterScreen(clear);
    },
    sessionSize: (_cols, rows) => {
      if (rows === sessionRows) return;
      sessionRows = rows;
      place();
    },
    status,
    event: (e) => {
      if (!statusLine) return status(eventText(e));
      if (e.kind === 'phase') phase = e.phase;
      else last = eventText(e);
      status(statusRowText(phase, last));
    },
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
      if (tty) stdout.off('resize', onResize);
      if (statusLine) {
        statusLine.release();
        statusLine = undefined;
      }
      if (stdout.isTTY) stdout.write(`${RESET_MODES}\r\n`);
      // The last status (why watching ended) stays on the screen as an ordinary line.
      if (tty && text !== '') stderr.write(`[ccc] ${text.replace(/\r?\n/g, eol)}${eol}`);
    },
  };
}
