/**
 * Runs `claude` as a plain child with the user's terminal (stdio inherited): ccc stays out of the
 * way, forwards INT/TERM/HUP so the agent can shut down cleanly, and reports the agent's exit code
 * as its own (128 + signal number when the agent died of a signal, as shells do).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

export interface RunClaudeOptions {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function runClaude(options: RunClaudeOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    const undo = () => {
      for (const signal of FORWARDED) process.off(signal, forward);
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
