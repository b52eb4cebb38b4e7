/**
 * Drives a program in a real pty the way a person would (typing character by character) and
 * reads the screen through a headless terminal emulator, so assertions are about what a user sees.
 */
import xtermHeadless from '@xterm/headless';
import { spawn, type IPty } from '@lydell/node-pty';

const { Terminal } = xtermHeadless;

export interface PtyHarness {
  pty: IPty;
  /** Every byte the program wrote. */
  output(): Buffer;
  screen(): string;
  type(text: string, delayMs?: number): Promise<void>;
  press(bytes: string): void;
  waitForScreen(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Waits for the bytes, then for the emulator to have parsed them (the screen shows them). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit, once the emulator has parsed all the program wrote. */
  exited: Promise<{ exitCode: number; signal?: number }>;
  /** Resizes the terminal as a user dragging the window would (pty and emulator). */
  resize(cols: number, rows: number): void;
  /** Closes the terminal as closing its window does: the pty's master goes (the kernel hangs it up), the program gets SIGHUP. */
  close(): void;
  kill(): void;
}

export function startPty(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number }): PtyHarness {
  const cols = options.cols ?? 120;
  const rows = options.rows ?? 40;
  // logLevel off: the byte-transparency tests send every byte value, each parse error a dozen log lines.
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000, logLevel: 'off' });
  const pty = spawn(command, args, { cwd: options.cwd, env: options.env, cols, rows, name: 'xterm-256color', encoding: null });
  const chunks: Buffer[] = [];
  pty.onData((data) => {
    const chunk = data as unknown as Buffer;
    chunks.push(chunk);
    term.write(chunk);
  });
  // The emulator parses what it is given asynchronously: `drained` resolves once it has parsed every
  // byte received so far, so a screen read after `exited` or `waitForOutput` shows what they saw.
  const drained = () => new Promise<void>((resolve) => term.write(new Uint8Array(0), resolve));
  // node-pty reports the exit once the pty's output has all been read.
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => pty.onExit((exit) => void drained().then(() => resolve(exit))));
  const screen = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const waitFor = async (check: () => boolean, describe: () => string, timeoutMs: number) => {
    const start = Date.now();
    while (!check()) {
      if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs}ms waiting for ${describe()}\n--- screen ---\n${screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    pty,
    output: () => Buffer.concat(chunks),
    screen,
    async type(text, delayMs = 15) {
      for (const ch of text) {
        pty.write(ch);
        await new Promise((r) => setTimeout(r, delayMs));
      }
    },
    press: (bytes) => pty.write(bytes),
    async waitForScreen(pattern, timeoutMs = 30_000) {
      // the emulator parses asynchronously; give it a tick before reading
      await waitFor(
        () => pattern.test(screen()),
        () => String(pattern),
        timeoutMs,
      );
      return screen();
    },
    async waitForOutput(pattern, timeoutMs = 30_000) {
      await waitFor(
        () => pattern.test(Buffer.concat(chunks).toString('utf8')),
        () => String(pattern),
        timeoutMs,
      );
      await drained();
    },
    exited,
    resize: (c, r) => {
      term.resize(c, r);
      pty.resize(c, r);
    },
    // node-pty's own destroy(), left out of its typings.
    close: () => (pty as IPty & { destroy(): void }).destroy(),
    kill: () => {
      try {
        pty.kill('SIGKILL');
      } catch {
        // gone
      }
    },
  };
}
