/**
 * The edge between the Keeper and a Worker child process: spawn, send, receive, exit, kill.
 * The real one forks `dist/mcp/worker-main.js` with an IPC channel; unit tests use a fake with the
 * same shape (test/mcp/support/fake-worker.ts).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KeeperMessage } from '../ipc/protocol.js';

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error?: string;
}

export interface WorkerProcess {
  readonly pid: number | undefined;
  /** Sends a message; silently dropped when the channel is already closed (the exit event follows). */
  send(message: KeeperMessage): void;
  /** Raw IPC messages; the caller validates them. Returns the undo. */
  onMessage(listener: (message: unknown) => void): () => void;
  /** Fires once, when the process has exited or failed to start. Returns the undo. */
  onExit(listener: (exit: WorkerExit) => void): () => void;
  /** SIGKILL: a Worker being replaced gets no chance to answer anything more. */
  kill(): void;
}

/** Starts Worker number `generation` (1 for the first, +1 per restart). */
export type WorkerSpawner = (generation: number) => WorkerProcess;

const workerEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'worker-main.js');

export function createForkSpawner(options: { env: NodeJS.ProcessEnv; entry?: string }): WorkerSpawner {
  return (generation) => {
    // Worker stdout goes to our stderr: our stdout is the MCP protocol and must carry nothing else.
    const child = fork(options.entry ?? workerEntry, [], {
      stdio: ['ignore', 2, 2, 'ipc'],
      env: { ...options.env, CCC_MCP_WORKER_GENERATION: String(generation), CCC_MCP_SUPERVISOR_PID: String(process.pid) },
    });
    let exited: WorkerExit | undefined;
    const exitListeners = new Set<(exit: WorkerExit) => void>();
    const finish = (exit: WorkerExit) => {
      if (exited) return;
      exited = exit;
      for (const listener of exitListeners) listener(exit);
    };
    child.on('exit', (code, signal) => finish({ code, signal }));
    child.on('error', (error) => {
      // 'error' without a pid means the spawn failed; with a pid it is a send/kill problem that the
      // exit event reports anyway.
      if (child.pid === undefined) finish({ code: null, signal: null, error: error.message });
    });
    return {
      pid: child.pid,
      send(message) {
        if (!child.connected) return;
        // A failed send means the Worker is going away; its exit event does the accounting.
        child.send(message, () => {});
      },
      onMessage(listener) {
        child.on('message', listener);
        return () => child.off('message', listener);
      },
      onExit(listener) {
        if (exited) {
          const done = exited;
          queueMicrotask(() => listener(done));
          return () => {};
        }
        exitListeners.add(listener);
        return () => exitListeners.delete(listener);
      },
      kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  };
}
