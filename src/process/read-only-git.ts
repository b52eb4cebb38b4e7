/**
 * git, run to read the user's project while the agent may be working in it: never the user's
 * index lock (`GIT_OPTIONAL_LOCKS=0`: `git status` would otherwise refresh the index and take
 * index.lock), a bound on time and on the output kept. `env` adds variables (a private
 * `GIT_INDEX_FILE` for a snapshot that leaves the user's index alone).
 */
import { childRunner, type ChildRunner } from './child-process.js';

const GIT_TIMEOUT_MS = 30_000;

export interface ReadOnlyGitOptions {
  cwd: string;
  runner?: ChildRunner;
  /** Bytes of output kept (the first ones); the rest is read and dropped. */
  maxBytes?: number;
  env?: Record<string, string>;
}

/** The output of `git <args>`, or undefined when it failed (not a work tree, no git installed, timed out). */
export async function readOnlyGit(args: readonly string[], options: ReadOnlyGitOptions): Promise<Buffer | undefined> {
  const max = options.maxBytes ?? Infinity;
  const chunks: Buffer[] = [];
  let kept = 0;
  const result = await (options.runner ?? childRunner).run({
    command: 'git',
    args: [...args],
    cwd: options.cwd,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', ...options.env },
    timeoutMs: GIT_TIMEOUT_MS,
    onStdout: (chunk) => {
      if (kept > max) return;
      chunks.push(chunk);
      kept += chunk.length;
    },
  });
  return result.exitCode === 0 ? Buffer.concat(chunks) : undefined;
}

/** The same as text (UTF-8), or undefined when git failed. */
export async function readOnlyGitText(args: readonly string[], options: ReadOnlyGitOptions): Promise<string | undefined> {
  return (await readOnlyGit(args, options))?.toString('utf8');
}
