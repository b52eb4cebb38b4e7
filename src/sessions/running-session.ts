/**
 * `sessions/<pid>.json`: a supervised session that is running now (pid, session id, cwd,
 * observer URL, start time), for `ccc mcp`'s supervisor_status and other tools. Removed on exit;
 * the record of a ccc that could not remove it (killed) is removed by the next ccc that starts.
 * Writes are atomic and applied in order. One the disk refuses leaves the session running unlisted
 * (or listed as it was): said once, as every other write under the config directory (write-failure.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../process/process-alive.js';
import { isDeadWriterTemp, writeFileAtomic } from '../state/atomic-file.js';
import { runningSessionPath } from '../state/paths.js';
import { warnWriteFailed } from '../state/write-failure.js';

export interface RunningSessionRecord {
  pid: number;
  session_id?: string;
  cwd: string;
  observer_url?: string;
  started_at: string;
  command: string[];
}

export type RunningSession = ReturnType<typeof registerRunningSession>;

export function registerRunningSession(configDir: string, record: Omit<RunningSessionRecord, 'started_at'>) {
  const file = runningSessionPath(configDir, record.pid);
  let current: RunningSessionRecord = { ...record, started_at: new Date().toISOString() };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  removeStaleRecords(path.dirname(file), isProcessAlive);
  let writes = Promise.resolve();
  let removed = false;
  const write = () => {
    const snapshot = JSON.stringify(current, null, 2);
    writes = writes
      .then(() => (removed ? undefined : writeFileAtomic(file, snapshot, { mode: 0o600 })))
      .catch((error: unknown) => warnWriteFailed(file, error));
  };
  write();
  return {
    update(fields: Partial<RunningSessionRecord>) {
      current = { ...current, ...fields };
      write();
    },
    async remove() {
      removed = true;
      await writes;
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // A read-only or vanished directory: the record stays, and the next ccc to start removes it (its process is gone).
      }
    },
  };
}

/**
 * Removes the records of sessions whose process is gone (a ccc killed before it could remove its
 * own), and the temp files of record writes a killed ccc left half-way.
 */
export function removeStaleRecords(dir: string, isAlive: (pid: number) => boolean): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^(\d+)\.json$/.exec(name)?.[1];
    const gone = pid !== undefined && Number(pid) !== process.pid && !isAlive(Number(pid));
    if (!gone && !isDeadWriterTemp(name, isAlive)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      // Not ours to remove (a read-only directory): readers skip dead sessions anyway.
    }
  }
}
