/**
 * `sessions/<pid>.json`: a supervised session that is running now (pid, session id, cwd,
 * observer URL, start time), for `ccc mcp`'s supervisor_status and other tools. Removed on exit.
 * Writes are atomic and applied in order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../state/atomic-file.js';
import { runningSessionPath } from '../state/paths.js';

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
  let writes = Promise.resolve();
  let removed = false;
  const write = () => {
    const snapshot = JSON.stringify(current, null, 2);
    writes = writes.then(() => (removed ? undefined : writeFileAtomic(file, snapshot, { mode: 0o600 }))).catch(() => {});
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
      fs.rmSync(file, { force: true });
    },
  };
}
