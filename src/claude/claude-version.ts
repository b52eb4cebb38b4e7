/**
 * `claude --version`, remembered between runs in `<config dir>/ccc/claude-version.json` (starting
 * claude made `ccc --version` cost a second Node start; see bench/RESULTS.md, "ccc --version:
 * claude's version remembered"). The entry is keyed by the
 * configured command and the executable it resolved to: its real path, size, mtime, ctime and
 * inode. Updating or reinstalling claude replaces or rewrites that file, which changes the inode or
 * the ctime even when a tool keeps the mtime, so claude is asked again. What the key cannot see: a
 * wrapper script that starts another executable, when only that other executable changes.
 * The cache is a convenience: an unreadable, corrupt or unwritable file means claude is asked,
 * never an error.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { errorText } from '../errors.js';
import { clip } from '../value-text.js';

const run = promisify(execFile);

export interface ClaudeVersionOptions {
  /** The configured command (`claude`, a path…), part of the key. */
  command: string;
  /** The executable it resolved to (findExecutable). */
  file: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the version is remembered; undefined: ask claude every time. */
  cacheFile?: string;
  /** Creates the cache file's directory before a write. */
  prepareDir?: () => void;
}

interface CacheEntry {
  key: ExecutableKey;
  version: string;
}

interface ExecutableKey {
  command: string;
  realPath: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/**
 * Why `--version` failed, with the last line claude wrote to stderr (execFile's message names only
 * the command): a claude that cannot start says why there, and `ccc doctor` must show it. The line
 * is the program's text: control characters are dropped before it reaches a terminal.
 */
function failureText(error: unknown): string {
  const first = errorText(error).split('\n')[0]!;
  const stderr = (error as { stderr?: unknown }).stderr;
  const said =
    typeof stderr === 'string'
      ? stderr
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .pop()
      : undefined;
  return said ? `${first}: ${clip(said.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''), 300)}` : first;
}

/** The first line claude prints for `--version`, or a parenthesised reason it printed none. */
export async function claudeVersion(options: ClaudeVersionOptions): Promise<string> {
  const key = executableKey(options.command, options.file);
  const cached = key && options.cacheFile ? readCached(options.cacheFile, key) : undefined;
  if (cached !== undefined) return cached;
  let version: string;
  try {
    const { stdout } = await run(options.file, ['--version'], { cwd: options.cwd, env: options.env, timeout: 10_000 });
    const line = stdout.trim().split('\n')[0];
    if (!line) return '(no version printed)';
    version = line;
  } catch (error) {
    return `(${options.file} --version failed: ${failureText(error)})`;
  }
  if (key && options.cacheFile) await remember(options.cacheFile, { key, version }, options.prepareDir);
  return version;
}

function executableKey(command: string, file: string): ExecutableKey | undefined {
  try {
    const realPath = fs.realpathSync(file);
    const stat = fs.statSync(realPath);
    return { command, realPath, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino };
  } catch {
    return undefined;
  }
}

function readCached(cacheFile: string, key: ExecutableKey): string | undefined {
  try {
    const entry = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Partial<CacheEntry> | null;
    if (!entry || typeof entry.version !== 'string' || entry.version === '' || !sameKey(entry.key, key)) return undefined;
    return entry.version;
  } catch {
    return undefined;
  }
}

function sameKey(stored: unknown, key: ExecutableKey): boolean {
  if (stored === null || typeof stored !== 'object') return false;
  const record = stored as Record<string, unknown>;
  return (Object.keys(key) as (keyof ExecutableKey)[]).every((name) => record[name] === key[name]);
}

async function remember(cacheFile: string, entry: CacheEntry, prepareDir?: () => void): Promise<void> {
  try {
    prepareDir?.();
    const { writeFileAtomic } = await import('../state/atomic-file.js');
    await writeFileAtomic(cacheFile, `${JSON.stringify(entry)}\n`);
  } catch {
    // Not remembered: the next `ccc --version` asks claude again.
  }
}
