/**
 * The pty edge: the agent (`claude`) runs in a pseudo-terminal. Bytes flow as Buffers in both
 * directions (node-pty with `encoding: null`), never re-encoded, so the proxy stays byte-transparent.
 */
import { createRequire } from 'node:module';
import type { IPty, IPtyForkOptions } from '@lydell/node-pty';
import type { AgentExit } from './byte-path.js';

/**
 * node-pty (a native addon) loads on the first spawn: with the native relay, which is the usual
 * byte path, a supervised launch never needs it (docs/design/architecture.md, "Start-up"). A require, so the spawn stays synchronous.
 */
const spawnPty = (file: string, args: string[], options: IPtyForkOptions): IPty =>
  (createRequire(import.meta.url)('@lydell/node-pty') as typeof import('@lydell/node-pty')).spawn(file, args, options);

export interface AgentPty {
  readonly pid: number;
  /** Calls `listener` with each chunk of output until `signal` aborts. */
  onData(listener: (chunk: Buffer) => void, signal?: AbortSignal): void;
  onExit(listener: (exit: AgentExit) => void, signal?: AbortSignal): void;
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
    env: options.env,
    encoding: null,
  });
  let exited = false;
  pty.onExit(() => {
    exited = true;
  });
  return {
    pid: pty.pid,
    onData: (listener, signal) => disposeOn(pty.onData(listener as unknown as (data: string) => void), signal),
    onExit: (listener, signal) => disposeOn(pty.onExit(listener), signal),
    write: (data) => {
      if (exited) return;
      // A Buffer goes to the pty as it is: input stays byte-transparent, where a string would
      // re-encode bytes that are not UTF-8 (pinned in test/pty/agent-pty-input.test.ts). node-pty
      // queues what the pty cannot take yet and retries when the agent has read: a write never
      // blocks ccc's event loop, however much is pasted into an agent that is not reading.
      pty.write(data);
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

function disposeOn(listening: { dispose(): void }, signal: AbortSignal | undefined): void {
  if (signal?.aborted) listening.dispose();
  else signal?.addEventListener('abort', () => listening.dispose(), { once: true });
}
