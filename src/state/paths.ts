/**
 * Where ccc keeps its per-session files (docs/design/files.md), all under `<config dir>/ccc/`,
 * mode 0700. Session ids come from hook JSON, i.e. from outside: they are checked before they
 * become part of a file name, so `../` or `/` can never steer a write elsewhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CccError } from '../errors.js';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isValidSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** Returns the id unchanged, or throws: rejecting beats sanitizing, which could merge two sessions' files. */
export function checkSessionId(value: unknown): string {
  if (isValidSessionId(value)) return value;
  throw new CccError(
    'USAGE',
    `Invalid session id ${JSON.stringify(value)}: only letters, digits, "_" and "-" are allowed (1 to 128 characters), because it becomes part of a file name.`,
    { data: { sessionId: value } },
  );
}

/** `<configDir>/ccc`, created with mode 0700 (and tightened to 0700 if it was looser). */
export function cccDir(configDir: string): string {
  return privateDir(path.join(configDir, 'ccc'));
}

/**
 * Where jiti keeps the TypeScript it transpiled (user config files), keyed by each file's content:
 * an edited file is transpiled again, an unchanged one loads in milliseconds. Created on first use.
 */
export function moduleCacheDir(configDir: string): string {
  return privateDir(path.join(cccDir(configDir), 'module-cache'));
}

/** The task baselines' object stores (checkers/reviewer/task-baseline.ts); made by their writer, not here. */
export function baselineStoresDir(configDir: string): string {
  return path.join(configDir, 'ccc', 'baselines');
}

/** `ccc --version`'s memory of claude's version (src/claude/claude-version.ts); not created here. */
export function claudeVersionCachePath(configDir: string): string {
  return path.join(configDir, 'ccc', 'claude-version.json');
}

export function sessionLogPath(configDir: string, sessionId: string): string {
  return path.join(cccDir(configDir), `supervisor-${checkSessionId(sessionId)}.log`);
}

export function sessionStatePath(configDir: string, sessionId: string): string {
  return path.join(cccDir(configDir), sessionStateFileName(sessionId));
}

/** The state file's name in `<configDir>/ccc/`, without making the directory. */
export function sessionStateFileName(sessionId: string): string {
  return `supervisor-${checkSessionId(sessionId)}.json`;
}

export function inputLogPath(configDir: string, sessionId: string): string {
  return path.join(cccDir(configDir), `input-${checkSessionId(sessionId)}.log`);
}

/** The record of a running supervised session, `sessions/<pid>.json`. */
export function runningSessionPath(configDir: string, pid: number): string {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new CccError('INTERNAL', `Invalid process id ${String(pid)} for a session record.`, { data: { pid } });
  }
  return path.join(privateDir(path.join(cccDir(configDir), 'sessions')), `${pid}.json`);
}

function privateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const mode = fs.statSync(dir).mode & 0o777;
    if ((mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  } catch {
    // Not ours to change (another owner): leave it; the files inside are still created 0600.
  }
  return dir;
}
