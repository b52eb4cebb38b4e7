/**
 * Atomic file replacement: write a temp file in the same directory, fsync it, rename it over
 * the target. A reader sees the old content or the new, never a torn write, even if the writer
 * is killed half-way.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The temp file name of an atomic write to `file` by this process: `.<name>.<pid>.<8 hex>.tmp`. */
function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Whether `name` is the temp file of an atomic write whose writer is gone: a writer killed between
 * its open and its rename leaves it, and only a sweep of its directory can remove it.
 */
export function isDeadWriterTemp(name: string, isAlive: (pid: number) => boolean): boolean {
  const pid = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name)?.[1];
  return pid !== undefined && Number(pid) !== process.pid && !isAlive(Number(pid));
}

export async function writeFileAtomic(file: string, data: string, options: { mode?: number } = {}): Promise<void> {
  const temp = tempName(file);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temp, 'wx', options.mode ?? 0o600);
    await handle.writeFile(data, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await syncDir(path.dirname(file));
}

/** Makes the rename itself durable; best effort (not every platform can fsync a directory). */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the directory entry is a bonus, not a correctness requirement here.
  }
}
