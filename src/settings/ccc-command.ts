/**
 * The absolute command line that runs this very `ccc`, for hook commands written into
 * `settings.json` (`/usr/local/bin/ccc supervisor-hook` and nothing more, no `--state-dir`:
 * docs/design/stop-path.md, "`ccc supervisor-hook`").
 *
 * Claude Code runs hook commands through a shell with its own PATH, so the command must not rely
 * on PATH finding `ccc`:
 * - started through a launcher (the npm bin link `/usr/local/bin/ccc`): that absolute path, as
 *   given, not resolved: the link survives upgrades of the package behind it;
 * - started as a `.js` file by node (`node dist/cli/main.js`): this node binary and the real path
 *   of that file, since a bare `.js` path is not executable by itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../stop/launch-settings.js';

export interface CccProcess {
  /** `process.argv[1]`: the script node was asked to run. */
  argv1: string;
  /** `process.execPath`. */
  execPath: string;
  cwd: string;
  realpath?: (file: string) => string;
}

export function cccCommandWords(proc: CccProcess): string[] {
  const script = path.resolve(proc.cwd, proc.argv1);
  if (!/\.[cm]?js$/.test(script)) return [script];
  const realpath = proc.realpath ?? fs.realpathSync;
  return [proc.execPath, realpath(script)];
}

/** `<ccc> supervisor-hook`, each word quoted for a POSIX shell when it needs it. */
export function supervisorHookCommand(proc: CccProcess): string {
  return [...cccCommandWords(proc), 'supervisor-hook'].map(shellQuote).join(' ');
}

export function currentCccProcess(): CccProcess {
  return { argv1: process.argv[1] ?? 'ccc', execPath: process.execPath, cwd: process.cwd() };
}
