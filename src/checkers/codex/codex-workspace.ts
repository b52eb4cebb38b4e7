/**
 * The throwaway copy a codex review runs in when its runners must write (`supervisor.codex.workspace:
 * "copy"`, or an unsandboxed review): the project's files as git sees them (tracked, and untracked
 * ones that `.gitignore` does not hide; outside git, every file) copied into a private temporary
 * directory, and its dependency directories (`node_modules`, a virtualenv), which are ignored and
 * large, linked rather than copied. A runner that writes through such a link writes into the
 * project: the sandbox refuses it there, since the project is not among its writable places.
 * Build outputs and caches (`target/`, `.pytest_cache`) are not copied: the copy rebuilds them.
 * Removed after the review, whatever happened.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildRunner } from '../../process/child-process.js';
import { readOnlyGitText } from '../../process/read-only-git.js';
import { projectFiles } from '../reviewer/task-baseline.js';

/** Ignored directories that hold what the project depends on, linked into the copy. */
const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv', '.tox'];
/** A project with more files than this is not copied: the review says to use the project workspace. */
const MAX_COPIED_FILES = 50_000;

export interface Workspace {
  /** The copy of the project: codex's working directory. */
  dir: string;
  /** TMPDIR and the caches of the runners. */
  scratch: string;
  dispose(): Promise<void>;
}

export async function throwawayCopy(project: string, options: { runner?: ChildRunner } = {}): Promise<Workspace> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-codex-'));
  const dispose = () => fs.rm(root, { recursive: true, force: true });
  try {
    const dir = path.join(root, 'project');
    const scratch = path.join(root, 'scratch');
    await fs.mkdir(dir, { mode: 0o700 });
    await fs.mkdir(scratch, { mode: 0o700 });
    for (const file of await filesOf(project, options.runner)) await copyOne(project, dir, file);
    for (const name of DEPENDENCY_DIRS) {
      const source = path.join(project, name);
      const stat = await fs.lstat(source).catch(() => undefined);
      if (stat?.isDirectory() && !(await exists(path.join(dir, name)))) await fs.symlink(source, path.join(dir, name));
    }
    return { dir, scratch, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function filesOf(project: string, runner: ChildRunner | undefined): Promise<string[]> {
  const listed = await readOnlyGitText(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: project, runner, maxBytes: 64 * 1024 * 1024 });
  const files = listed === undefined ? (await projectFiles(project, MAX_COPIED_FILES + 1)).files.map(([file]) => file) : listed.split('\0').filter(Boolean);
  if (files.length > MAX_COPIED_FILES) {
    throw new Error(`the project has more than ${MAX_COPIED_FILES} files to copy; review it in place (supervisor.codex.workspace: "project")`);
  }
  return files;
}

/** One file (or a symbolic link, as a link), with its mode; a file listed but gone (deleted, not yet staged) is skipped. */
async function copyOne(from: string, to: string, file: string): Promise<void> {
  const source = path.join(from, file);
  const target = path.join(to, file);
  const stat = await fs.lstat(source).catch(() => undefined);
  if (!stat || !(stat.isFile() || stat.isSymbolicLink())) return;
  await fs.mkdir(path.dirname(target), { recursive: true });
  if (stat.isSymbolicLink()) await fs.symlink(await fs.readlink(source), target);
  else await fs.copyFile(source, target, fs.constants.COPYFILE_FICLONE);
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
