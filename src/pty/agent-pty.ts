/**
 * The pty edge: the agent (`claude`) runs in a pseudo-terminal. Bytes flow as Buffers in both
 * directions (node-pty with `encoding: null`), never re-encoded, so the proxy stays byte-transparent.
 */
import { spawn as spawnPty } from '@lydell/node-pty';
import { fdWriter } from './fd-writer.js';

export type Undo = () => void;

export interface AgentExit {
  exitCode: number;
  signal?: number;
}

export interface AgentPty {
  readonly pid: number;
  onData(listener: (chunk: Buffer) => void): Undo;
  onExit(listener: (exit: AgentExit) => void): Undo;
  write(data: Buffer | string): void;
  resize(cols: number, rows: number): void;
  /** Stops reading the agent's output (flow control: the user's terminal is behind). */
  pause(): void;
  resume(): void;
  kill(signal?: NodeJS.Signals): void;
}

export interface AgentPtyOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  cols: number;
  rows: number;
}

export function spawnAgentPty(options: AgentPtyOptions): AgentPty {
  const pty = spawnPty(options.command, options.args, {
    name: options.env.TERM ?? 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: options.env as Record<string, string>,
    encoding: null,
  });
  let exited = false;
  // Unix node-pty exposes the master fd (not in its typings); Windows (ConPTY) has none.
  const fd = (pty as unknown as { fd?: unknown }).fd;
  // A write error means the agent's side is gone (EIO); its exit is reported through onExit.
  const writer = typeof fd === 'number' ? fdWriter(fd) : undefined;
  pty.onExit(() => {
    exited = true;
    writer?.close();
  });
  return {
    pid: pty.pid,
    onData: (listener) => {
      const d = pty.onData(listener as unknown as (data: string) => void);
      return () => d.dispose();
    },
    onExit: (listener) => {
      const d = pty.onExit(listener);
      return () => d.dispose();
    },
    write: (data) => {
      if (exited) return;
      if (writer) writer.write(typeof data === 'string' ? Buffer.from(data) : data);
      // Only without a master fd (Windows ConPTY), whose write takes text.
      else pty.write(typeof data === 'string' ? data : data.toString('utf8'));
    },
    // A resize after the pty closed throws in node-pty; the guard keeps a late SIGWINCH harmless.
    resize: (cols, rows) => {
      if (exited || cols < 1 || rows < 1) return;
      try {
        pty.resize(cols, rows);
      } catch {
        // the pty closed between the check and the call
      }
    },
    pause: () => pty.pause(),
    resume: () => pty.resume(),
    kill: (signal) => {
      if (exited) return;
      try {
        pty.kill(signal);
      } catch {
        // already gone
      }
    },
  };
}
