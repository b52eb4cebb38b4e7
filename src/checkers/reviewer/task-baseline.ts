/**
 * The project as it was when a task began, so that a fresh reviewer is given the change since then
 * (project-change.ts), whatever the agent did with it: edited, committed, deleted.
 *
 * In a git work tree: the checked-out commit and a tree object of the whole work tree (tracked
 * and untracked files, as `.gitignore` leaves them), written through a private index
 * (`GIT_INDEX_FILE` in a temporary directory, started from a copy of the user's index so that
 * unchanged files are not hashed again) into an object store of ccc's own (`GIT_OBJECT_DIRECTORY`
 * under ccc's config dir, the repository's objects read through `GIT_ALTERNATE_OBJECT_DIRECTORIES`):
 * the user's index, refs, object store and work tree are untouched, and a file already in the
 * repository costs nothing. Stores older than STORE_DAYS are removed as new ones are made.
 * Elsewhere: each file's path, size and modification time, bounded to MAX_FILES.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildRunner } from '../../process/child-process.js';
import { readOnlyGitText } from '../../process/read-only-git.js';

/** `at`: when it was taken (ISO 8601); `cwd`: the project directory it is of. */
export type TaskBaseline =
  /** `head` is absent in a repository without a commit yet. */
  /** `objects`: the object store holding `tree` (ccc's, beside the repository's own). */
  | { kind: 'git'; at: string; cwd: string; head?: string; tree: string; objects: string }
  | { kind: 'files'; at: string; cwd: string; files: BaselineFile[]; more?: boolean };

/** `[path relative to the project, size in bytes, modification time in ms]`. */
export type BaselineFile = [string, number, number];

const MAX_FILES = 2_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Baseline stores not touched for this long are removed (a task's review is over long before). */
const STORE_DAYS = 2;

export interface BaselineOptions {
  /** Where ccc keeps the snapshots' object stores (one per baseline); no git baseline without it. */
  storesDir?: string;
  runner?: ChildRunner;
  now?: () => Date;
}

/** The project now; never throws (a baseline that cannot be taken is none). */
export async function takeBaseline(cwd: string, options: BaselineOptions = {}): Promise<TaskBaseline | undefined> {
  const at = (options.now?.() ?? new Date()).toISOString();
  try {
    if ((await readOnlyGitText(['rev-parse', '--show-toplevel'], { cwd, runner: options.runner })) === undefined) {
      return { kind: 'files', at, cwd, ...(await projectFiles(cwd)) };
    }
    if (!options.storesDir) return undefined;
    const objects = await newStore(options.storesDir);
    const tree = await workTreeObject(cwd, objects, options.runner);
    if (!tree) {
      await fs.rm(objects, { recursive: true, force: true });
      return undefined;
    }
    const head = (await readOnlyGitText(['rev-parse', '--verify', '-q', 'HEAD'], { cwd, runner: options.runner }))?.trim();
    return { kind: 'git', at, cwd, tree, objects, ...(head ? { head } : {}) };
  } catch {
    return undefined;
  }
}

/** A new object store for one baseline; stores left from long ago go. */
async function newStore(storesDir: string): Promise<string> {
  await fs.mkdir(storesDir, { recursive: true, mode: 0o700 });
  const old = Date.now() - STORE_DAYS * 86_400_000;
  for (const name of await fs.readdir(storesDir).catch(() => [])) {
    const dir = path.join(storesDir, name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && stat.mtimeMs < old) await fs.rm(dir, { recursive: true, force: true });
  }
  const objects = path.join(storesDir, crypto.randomUUID());
  await fs.mkdir(objects, { mode: 0o700 });
  return objects;
}

/**
 * git's environment to write into and read from `objects` (a baseline's store) with the
 * repository's own objects behind it; undefined when the repository's store cannot be named.
 */
export async function baselineGitEnv(cwd: string, objects: string, runner?: ChildRunner): Promise<Record<string, string> | undefined> {
  const repository = (await readOnlyGitText(['rev-parse', '--path-format=absolute', '--git-path', 'objects'], { cwd, runner }))?.trim();
  return repository ? { GIT_OBJECT_DIRECTORY: objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: repository } : undefined;
}

/** A tree object of the work tree as it is now (tracked and untracked files), written to `objects`; undefined when git failed. */
export async function workTreeObject(cwd: string, objects: string, runner?: ChildRunner): Promise<string | undefined> {
  const stores = await baselineGitEnv(cwd, objects, runner);
  if (!stores) return undefined;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-baseline-'));
  try {
    const env = { ...stores, GIT_INDEX_FILE: path.join(dir, 'index') };
    const userIndex = (await readOnlyGitText(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd, runner }))?.trim();
    // A copy of the user's index keeps git's stat cache (unchanged files are not read again); without one, HEAD's tree.
    const copied = userIndex
      ? await fs.copyFile(userIndex, env.GIT_INDEX_FILE).then(
          () => true,
          () => false,
        )
      : false;
    if (!copied) await readOnlyGitText(['read-tree', 'HEAD'], { cwd, runner, env });
    if ((await readOnlyGitText(['add', '--all', '--', ':/'], { cwd, runner, env })) === undefined) return undefined;
    return (await readOnlyGitText(['write-tree'], { cwd, runner, env }))?.trim() || undefined;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The project's files, breadth first, without `node_modules` and `.git`. */
export async function projectFiles(root: string, max = MAX_FILES): Promise<{ files: BaselineFile[]; more?: boolean }> {
  const files: BaselineFile[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const dir = pending.shift()!;
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) pending.push(relative);
      } else if (entry.isFile()) {
        if (files.length >= max) return { files, more: true };
        const stat = await fs.stat(path.join(root, relative)).catch(() => undefined);
        if (stat) files.push([relative, stat.size, Math.round(stat.mtimeMs)]);
      }
    }
  }
  return { files };
}

/** A baseline read back from the session state: only a well-formed one. */
export function baselineOf(value: unknown): TaskBaseline | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'string' || typeof v.cwd !== 'string') return undefined;
  const sha = (s: unknown) => typeof s === 'string' && /^[0-9a-f]{40,64}$/.test(s);
  if (v.kind === 'git' && sha(v.tree) && typeof v.objects === 'string' && path.isAbsolute(v.objects) && (v.head === undefined || sha(v.head))) {
    return { kind: 'git', at: v.at, cwd: v.cwd, tree: v.tree as string, objects: v.objects, ...(v.head ? { head: v.head as string } : {}) };
  }
  if (v.kind === 'files' && Array.isArray(v.files)) {
    const files = v.files.filter(
      (f): f is BaselineFile => Array.isArray(f) && f.length === 3 && typeof f[0] === 'string' && Number.isFinite(f[1]) && Number.isFinite(f[2]),
    );
    return { kind: 'files', at: v.at, cwd: v.cwd, files, ...(v.more === true ? { more: true } : {}) };
  }
  return undefined;
}

/** The newest of the baselines taken in `cwd`: the task began after each of them. */
export function newestBaseline(cwd: string, ...candidates: Array<TaskBaseline | undefined>): TaskBaseline | undefined {
  return candidates
    .filter((b): b is TaskBaseline => b !== undefined && b.cwd === cwd)
    .reduce<TaskBaseline | undefined>((newest, b) => (!newest || Date.parse(b.at) > Date.parse(newest.at) ? b : newest), undefined);
}
