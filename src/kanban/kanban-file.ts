/**
 * Reading and writing the kanban file on disk. Every write is atomic (temp file + rename) and
 * keeps the file's permissions, so a crash at any moment leaves the old kanban or the new one.
 * A file reached through a symlink is written where the link points, so the link stays a link.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CccError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-file.js';
import { readText } from './read-text.js';
import { kanbanFormatOf, parseKanban, updateKanbanText, type Kanban, type KanbanChanges, type KanbanFormat } from './kanban-format.js';

/** A file as ccc addresses it: the absolute path, and the name the user sees in messages. */
export interface FileRef {
  path: string;
  /** Relative to the working directory when inside it. */
  display: string;
}

export interface KanbanDocument {
  ref: FileRef;
  format: KanbanFormat;
  /** The exact text read, the base of the next write. */
  text: string;
  kanban: Kanban;
}

export function fileRef(file: string, cwd: string): FileRef {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return { path: absolute, display: relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative };
}

/** Throws CccError KANBAN_INVALID (exit 2) when the file is missing, unreadable or malformed. */
export async function readKanbanFile(ref: FileRef): Promise<KanbanDocument> {
  const text = await readText(
    ref,
    (problem, cause) =>
      new CccError(
        'KANBAN_INVALID',
        `The kanban file ${ref.display} ${problem}. Give the path of a kanban file (JSON or YAML, see docs/kanban.md of ccc's package).`,
        {
          cause,
          data: { file: ref.display },
        },
      ),
  );
  const format = kanbanFormatOf(ref.path, text);
  return { ref, format, text, kanban: parseKanban(text, format, ref.display) };
}

/** Writes `changes` over `doc`'s text atomically and returns the new document. */
export async function writeKanbanChanges(doc: KanbanDocument, changes: KanbanChanges): Promise<KanbanDocument> {
  const text = updateKanbanText(doc.text, doc.format, changes);
  await writeThrough(doc.ref.path, text);
  return { ...doc, text, kanban: parseKanban(text, doc.format, doc.ref.display) };
}

/** The task file a kanban entry names: paths are relative to the kanban file's directory. */
export function taskRef(kanban: FileRef, task: string, cwd: string): FileRef {
  return fileRef(path.resolve(path.dirname(kanban.path), task), cwd);
}

/** The file's permission bits, so an atomic replacement does not tighten or loosen them. */
export async function fileMode(file: string, fallback = 0o644): Promise<number> {
  try {
    return (await fs.stat(file)).mode & 0o777;
  } catch {
    return fallback;
  }
}

/**
 * Replaces the file `file` names, atomically: when `file` is a symlink, its target is replaced
 * (the temp file beside the target, so the rename stays within one file system) and the link
 * itself is left as it is.
 */
export async function writeThrough(file: string, text: string): Promise<void> {
  const target = await linkTarget(file);
  await writeFileAtomic(target, text, { mode: await fileMode(target) });
}

/** The file a path finally names after following every symlink, whether that file exists yet or not. */
export async function linkTarget(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Missing, or a link to a file not created yet: follow the links by hand.
  let current = file;
  for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
    const stat = await fs.lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!stat?.isSymbolicLink()) return current;
    current = path.resolve(await fs.realpath(path.dirname(current)), await fs.readlink(current));
  }
  throw Object.assign(new Error(`too many levels of symbolic links: ${file}`), { code: 'ELOOP' });
}

/** The kernel's own limit on a chain of links (Linux follows at most 40). */
const MAX_LINK_HOPS = 40;
