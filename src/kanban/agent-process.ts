/**
 * The agent process of a crashed run. `ccc kanban` starts each agent in its own process group,
 * so a SIGKILL of ccc leaves the agent running, still working on the task (and, answered, it
 * would finish it a second time next to the rerun's agent). The lock file records the agent's pid
 * with its start time; a rerun stops that process group, but only when the pid still names the
 * same process (the start time matches), never a stranger that reused the pid.
 * The start time comes from /proc (Linux); elsewhere nothing is recorded and nothing is killed.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessIdentity {
  pid: number;
  /** Clock ticks since boot at which the process started (/proc/<pid>/stat, field 22). */
  start_time: string;
}

export function identify(pid: number): ProcessIdentity | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTime = fields[19];
    return startTime ? { pid, start_time: startTime } : undefined;
  } catch {
    return undefined;
  }
}

/** Stops the process group led by `recorded` if that process still runs; true when it did. */
export async function stopLeftoverAgent(recorded: ProcessIdentity, graceMs = 2000): Promise<boolean> {
  if (identify(recorded.pid)?.start_time !== recorded.start_time) return false;
  if (!signalGroup(recorded.pid, 'SIGTERM')) return false;
  const until = Date.now() + graceMs;
  while (Date.now() < until && signalGroup(recorded.pid, 0)) await sleep(50);
  signalGroup(recorded.pid, 'SIGKILL');
  return true;
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
