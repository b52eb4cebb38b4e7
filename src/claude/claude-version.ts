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
import fs from 'node:fs';
import { errorText } from '../errors.js';
import { clip } from '../value-text.js';

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

/** How long `--version` may take; the whole process group is killed then (a wrapper's child holding the pipe too). */
const VERSION_TIMEOUT_MS = 10_000;

/** The last line claude wrote to stderr, its control characters dropped: a claude that cannot start says why there. */
function lastSaid(stderr: string): string | undefined {
  const said = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  return said ? clip(said.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''), 300) : undefined;
}

/**
 * The first line claude prints for `--version`, or a parenthesised reason it printed none. Bounded:
 * a `--version` that hangs is killed with its process group after 10 s, and at most 64 KB of what it
 * prints is kept.
 */
export async function claudeVersion(options: ClaudeVersionOptions): Promise<string> {
  const key = executableKey(options.command, options.file);
  const cached = key && options.cacheFile ? readCached(options.cacheFile, key) : undefined;
  if (cached !== undefined) return cached;
  // Loaded only when claude must be asked: `ccc --version` with a remembered answer starts no more than it needs.
  const { runChild } = await import('../process/child-process.js');
  const run = await runChild({
    command: options.file,
    args: ['--version'],
    cwd: options.cwd,
    env: options.env,
    timeoutMs: VERSION_TIMEOUT_MS,
    killGraceMs: 500,
    maxStdoutBytes: 64 * 1024,
  });
  const failed = `${options.file} --version failed`;
  if (run.spawnError) return `(${failed}: ${errorText(run.spawnError).split('\n')[0]!})`;
  if (run.timedOut) return `(${failed}: no answer within ${VERSION_TIMEOUT_MS / 1000} s)`;
  if (run.exitCode !== 0) {
    const how = run.exitCode === null ? `killed by ${run.signal ?? 'a signal'}` : `exit code ${run.exitCode}`;
    const said = lastSaid(run.stderrTail);
    return `(${failed}: Command failed: ${options.file} --version (${how})${said ? `: ${said}` : ''})`;
  }
  const line = (run.stdout ?? '').trim().split('\n')[0]?.trim();
  if (!line) return '(no version printed)';
  if (key && options.cacheFile) await remember(options.cacheFile, { key, version: line }, options.prepareDir);
  return line;
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
