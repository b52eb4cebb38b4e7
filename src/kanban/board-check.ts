/**
 * What a kanban file says that its task files contradict: a `current` the task list does not
 * hold (the Manager reconciles a list without it), or a listed task whose file is missing (an
 * agent would be sent to it later). Neither stops a run: the Manager may be about to fix it, and
 * ccc interprets nothing but the output format. They are warned about once, at the start.
 */
import fs from 'node:fs/promises';
import type { Kanban } from './kanban-format.js';
import { taskRef, type FileRef } from './kanban-file.js';

/** Past this many missing files, one line says how many more there are. */
const MAX_MISSING_NAMED = 10;

export async function boardWarnings(kanban: FileRef, board: Kanban, cwd: string): Promise<string[]> {
  const warnings: string[] = [];
  const listed = board.tasks.map((task) => ({ task, ref: taskRef(kanban, task, cwd) }));
  if (board.current !== null) {
    const current = taskRef(kanban, board.current, cwd);
    if (!listed.some(({ ref }) => ref.path === current.path)) {
      warnings.push(
        `${kanban.display}: current ${JSON.stringify(board.current)} is not one of its tasks; the Manager gets a task list without it. Add it to tasks if it belongs there.`,
      );
    }
  }
  const missing: string[] = [];
  for (const { task, ref } of listed) {
    if (!(await isFile(ref.path))) missing.push(`${JSON.stringify(task)} (${ref.display})`);
  }
  for (const entry of missing.slice(0, MAX_MISSING_NAMED)) warnings.push(`${kanban.display}: tasks lists ${entry}, which is not a file.`);
  if (missing.length > MAX_MISSING_NAMED) warnings.push(`${kanban.display}: ${missing.length - MAX_MISSING_NAMED} more listed tasks are not files.`);
  return warnings;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
