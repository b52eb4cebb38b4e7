/**
 * Reading and writing the kanban file on disk. Every write is atomic (temp file + rename) and
 * keeps the file's permissions, so a crash at any moment leaves the old kanban or the new one.
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
  const text = await readText(ref, (problem, cause) =>
    new CccError('KANBAN_INVALID', `The kanban file ${ref.display} ${problem}. Give the path of a kanban file (JSON or YAML, see the README, section "ccc kanban").`, {
      cause,
      data: { file: ref.display },
    }),
  );
  const format = kanbanFormatOf(ref.path, text);
  return { ref, format, text, kanban: parseKanban(text, format, ref.display) };
}

/** Writes `changes` over `doc`'s text atomically and returns the new document. */
export async function writeKanbanChanges(doc: KanbanDocument, changes: KanbanChanges): Promise<KanbanDocument> {
  const text = updateKanbanText(doc.text, doc.format, changes);
  await writeFileAtomic(doc.ref.path, text, { mode: await fileMode(doc.ref.path) });
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
