/**
 * Finds the executable a command name refers to, the way the shell would, so that a missing
 * `claude` is a clear error before anything starts (instead of a pty that dies at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CccError } from '../errors.js';

export function findExecutable(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      const stat = fs.statSync(candidate);
      if (stat.isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

export function requireClaude(command: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const found = findExecutable(command, env, cwd);
  if (found) return found;
  const from = env.CCC_CLAUDE ? 'CCC_CLAUDE' : 'claude.command';
  throw new CccError(
    'CLAUDE_NOT_FOUND',
    `Cannot find the claude executable "${command}" (from ${from}). Install Claude Code (npm install -g @anthropic-ai/claude-code) or set CCC_CLAUDE to the path of claude.`,
    { data: { command } },
  );
}
