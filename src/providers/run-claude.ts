/**
 * Runs `claude` as a plain child with the user's terminal (stdio inherited): ccc stays out of the
 * way, forwards INT/TERM/HUP so the agent can shut down cleanly, and reports the agent's exit code
 * as its own (128 + signal number when the agent died of a signal, as shells do).
 */
import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import os from 'node:os';

export type SpawnChild = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface RunClaudeOptions {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  spawn?: SpawnChild;
  /** The process whose signals are forwarded; the real one by default. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function runClaude(options: RunClaudeOptions): Promise<number> {
  const spawn = options.spawn ?? nodeSpawn;
  const signals = options.signals ?? process;
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of FORWARDED) signals.on(signal, forward);
    const undo = () => {
      for (const signal of FORWARDED) signals.off(signal, forward);
    };
    child.once('error', (error) => {
      undo();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      undo();
      resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
    });
  });
}
