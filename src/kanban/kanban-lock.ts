/**
 * One `ccc kanban` per kanban file at a time: two runners on the same file would both start
 * `current` and do it twice. The lock is a small file beside the kanban file holding the owner's
 * pid; a lock whose owner is gone (a crash, SIGKILL) is taken over, so a rerun after a crash just
 * works. pid-based rather than mtime-based so that the rerun does not have to wait for staleness.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CccError } from '../errors.js';
import type { FileRef } from './kanban-file.js';

export interface KanbanLock {
  readonly file: string;
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  started_at: string;
}

export function lockFileOf(kanban: FileRef): string {
  return path.join(path.dirname(kanban.path), `.${path.basename(kanban.path)}.ccc-lock`);
}

export async function lockKanban(kanban: FileRef, pid = process.pid): Promise<KanbanLock> {
  const file = lockFileOf(kanban);
  const content: LockContent = { pid, started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${JSON.stringify(content)}\n`, { flag: 'wx', mode: 0o644 });
      return { file, release: () => release(file, pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(file);
    if (holder && holder.pid !== pid && isAlive(holder.pid)) {
      throw new CccError(
        'KANBAN_INVALID',
        `Another ccc kanban (pid ${holder.pid}, since ${holder.started_at}) is running the workflow of ${kanban.display}. Wait for it to finish or stop it; if no such process runs, delete ${path.relative(process.cwd(), file) || file}.`,
        { data: { file: kanban.display, pid: holder.pid } },
      );
    }
    // The owner is gone (or the file is unreadable debris): take the lock over.
    await fs.rm(file, { force: true });
  }
  throw new CccError('KANBAN_INVALID', `Could not lock ${kanban.display}: ${file} keeps reappearing. Is another ccc kanban starting on the same file?`, {
    data: { file: kanban.display },
  });
}

async function readLock(file: string): Promise<LockContent | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(value.pid) && (value.pid as number) > 0 ? { pid: value.pid as number, started_at: String(value.started_at ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

/** Signal 0 probes without signalling; EPERM means it exists but belongs to someone else. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function release(file: string, pid: number): Promise<void> {
  const holder = await readLock(file);
  if (holder?.pid === pid) await fs.rm(file, { force: true });
}
