/**
 * Safe I/O for JSON files that belong to the user (`settings.json`, `ccc.json`). Users must be able
 * to trust ccc with these files, so every change here:
 * - refuses to touch a file that does not parse, naming the file and the parse error;
 * - merges through a caller-supplied function that receives the whole parsed object, so keys ccc
 *   does not know survive untouched;
 * - keeps a backup `<file>.bak-<timestamp>` of the previous content before writing;
 * - writes atomically (temp file in the same directory, fsync, rename) keeping the file's mode;
 * - writes through a symlink to its target, so a dotfiles link stays a link;
 * - holds a lock for the read-modify-write, so two ccc processes never lose each other's change.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../config/rules.js';
import { CccError, errorText } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-file.js';
import { describeJsonError } from './json-error.js';

export type JsonObject = Record<string, unknown>;

/** A user JSON file as read. A missing file reads as an empty object with `exists: false`. */
export interface JsonObjectFile {
  /** Where it is written: the given path with symlinks resolved. */
  path: string;
  exists: boolean;
  /** The bytes as read, '' when missing. */
  text: string;
  value: JsonObject;
}

export async function readJsonObjectFile(file: string): Promise<JsonObjectFile> {
  const target = await resolveWriteTarget(file);
  let text: string;
  try {
    text = await fs.readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: target, exists: false, text: '', value: {} };
    throw new CccError('CONFIG_UNREADABLE', `Cannot read ${file}: ${errorText(error)}. Check the file's permissions.`, {
      data: { file },
      cause: error,
    });
  }
  return { path: target, exists: true, text, value: parseJsonObject(file, text) };
}

/** Parses a user file's text; whitespace only counts as `{}` (an empty file holds no settings). */
export function parseJsonObject(file: string, text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `it is not valid JSON (${describeJsonError(text, error as Error)})`, error);
  }
  if (!isPlainObject(value)) {
    throw corrupt(file, `it holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a JSON object`);
  }
  return value;
}

function corrupt(file: string, why: string, cause?: unknown): CccError {
  return new CccError('SETTINGS_CORRUPT', `${file} cannot be used: ${why}. ccc did not change it. Fix the file (or move it away) and run the command again.`, {
    data: { file },
    cause,
  });
}

/** The outcome of `updateJsonObjectFile`, also what `--dry-run` reports. */
export interface JsonFileChange {
  path: string;
  before: JsonObjectFile;
  after: JsonObject;
  /** The text written (or that would be written). */
  afterText: string;
  /** False when the change function returned an equal object: nothing was written, no backup. */
  changed: boolean;
  /** The backup of the previous content, when one was written. */
  backupPath?: string;
}

export interface UpdateOptions {
  dryRun?: boolean;
  now?: () => Date;
  /**
   * Keep only this many backups of the file, newest first (for files ccc changes often, such as
   * `current_provider` in ccc.json). Unset: every backup is kept.
   */
  keepBackups?: number;
}

/**
 * Reads the file, applies `change` to a copy of its object, and writes the result safely when it
 * differs. `change` may throw (a conflict, a corrupt file): then nothing is written.
 */
export async function updateJsonObjectFile(file: string, change: (current: JsonObject) => JsonObject, options: UpdateOptions = {}): Promise<JsonFileChange> {
  const target = await resolveWriteTarget(file);
  if (options.dryRun) return computeChange(file, change);
  await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  // Loaded only to write: launches that read settings files (the env-conflict check) never need it.
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile.lock(target, { realpath: false, retries: { retries: 50, minTimeout: 20, maxTimeout: 200 } });
  try {
    const result = await computeChange(file, change);
    if (!result.changed) return result;
    const backupPath = result.before.exists ? await backupFile(result.path, options.now?.() ?? new Date()) : undefined;
    await replaceKeepingMode(result.path, result.afterText);
    if (options.keepBackups !== undefined) await pruneBackups(result.path, options.keepBackups);
    return { ...result, backupPath };
  } finally {
    await release();
  }
}

async function computeChange(file: string, change: (current: JsonObject) => JsonObject): Promise<JsonFileChange> {
  const before = await readJsonObjectFile(file);
  const after = change(structuredClone(before.value));
  const changed = !isDeepStrictEqual(before.value, after);
  const afterText = changed ? `${JSON.stringify(after, null, detectIndent(before.text))}\n` : before.text;
  return { path: before.path, before, after, afterText, changed };
}

/** Keeps the user's indentation (spaces or a tab); 2 spaces for a new file. */
export function detectIndent(text: string): string | number {
  const match = /^\{\s*?\n([ \t]+)\S/.exec(text);
  if (!match?.[1]) return 2;
  return match[1].startsWith('\t') ? '\t' : match[1].length;
}

/** Copies the file to `<file>.bak-<timestamp>` (never overwriting an older backup). */
export async function backupFile(file: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt++) {
    const candidate = `${file}.bak-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      await fs.copyFile(file, candidate, fs.constants.COPYFILE_EXCL);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Removes the oldest `<file>.bak-*` beyond `keep` (their names sort by time). */
async function pruneBackups(file: string, keep: number): Promise<void> {
  const prefix = `${path.basename(file)}.bak-`;
  const names = (await fs.readdir(path.dirname(file))).filter((name) => name.startsWith(prefix)).sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) await fs.rm(path.join(path.dirname(file), name), { force: true });
}

/**
 * Replaces the file atomically (state/atomic-file.ts) keeping its mode: the temp file is created
 * with it, and set again afterwards because the umask may have narrowed it. A new file is
 * private (0600), as settings may hold keys.
 */
async function replaceKeepingMode(file: string, text: string): Promise<void> {
  const mode = await fs.stat(file).then(
    (stat) => stat.mode & 0o7777,
    () => 0o600,
  );
  await writeFileAtomic(file, text, { mode });
  if (((await fs.stat(file)).mode & 0o7777) !== mode) await fs.chmod(file, mode);
}

/** Follows symlinks (also dangling ones) so the link itself is never replaced by a file. */
async function resolveWriteTarget(file: string): Promise<string> {
  let current = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = await fs.readlink(current);
    } catch {
      return current; // not a symlink, or missing
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw new CccError('CONFIG_UNREADABLE', `${file}: too many levels of symbolic links.`, { data: { file } });
}
