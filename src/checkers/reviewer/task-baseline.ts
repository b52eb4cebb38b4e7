/**
 * The project as it was when a task began, so that a fresh reviewer is given the change since then
 * (project-change.ts), whatever the agent did with it: edited, committed, deleted.
 *
 * In a git work tree: the checked-out commit and a tree object of the whole work tree (tracked
 * and untracked files, as `.gitignore` leaves them), written through a private index
 * (`GIT_INDEX_FILE` in a temporary directory, started from a copy of the user's index so that
 * unchanged files are not hashed again). What it writes is unreferenced objects in the object
 * store; the user's index, refs and work tree are untouched. Elsewhere: each file's path, size
 * and modification time, bounded to MAX_FILES.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildRunner } from '../../process/child-process.js';
import { readOnlyGitText } from '../../process/read-only-git.js';

/** `at`: when it was taken (ISO 8601); `cwd`: the project directory it is of. */
export type TaskBaseline =
  /** `head` is absent in a repository without a commit yet. */
  { kind: 'git'; at: string; cwd: string; head?: string; tree: string } | { kind: 'files'; at: string; cwd: string; files: BaselineFile[]; more?: boolean };

/** `[path relative to the project, size in bytes, modification time in ms]`. */
export type BaselineFile = [string, number, number];

export const MAX_FILES = 2_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export interface BaselineOptions {
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
    const tree = await workTreeObject(cwd, options.runner);
    if (!tree) return undefined;
    const head = (await readOnlyGitText(['rev-parse', '--verify', '-q', 'HEAD'], { cwd, runner: options.runner }))?.trim();
    return { kind: 'git', at, cwd, tree, ...(head ? { head } : {}) };
  } catch {
    return undefined;
  }
}

/** A tree object of the work tree as it is now (tracked and untracked files), or undefined when git failed. */
export async function workTreeObject(cwd: string, runner?: ChildRunner): Promise<string | undefined> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-baseline-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
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
  if (v.kind === 'git' && sha(v.tree) && (v.head === undefined || sha(v.head))) {
    return { kind: 'git', at: v.at, cwd: v.cwd, tree: v.tree as string, ...(v.head ? { head: v.head as string } : {}) };
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
