/**
 * What the kernel says about a process, for job control: whether it is stopped, its process group,
 * its session, and the foreground process group of its terminal. Read from /proc on Linux, from
 * ps(1) elsewhere; undefined when the process is gone or neither can tell.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface ProcessState {
  /** The state letter: `T` stopped, `R` running, `S` sleeping, … */
  state: string;
  pgrp: number;
  /** Undefined where ps cannot tell it as a number (macOS). */
  session: number | undefined;
  /** The foreground process group of its terminal; 0 or less without a terminal. */
  tpgid: number;
}

export type ReadProcessState = (pid: number) => ProcessState | undefined;

export const readProcessState: ReadProcessState = (pid) => (fs.existsSync('/proc/self/stat') ? fromProc(pid) : fromPs(pid));

/** `pid (comm) state ppid pgrp session tty_nr tpgid …`; comm may hold spaces and parentheses. */
function fromProc(pid: number): ProcessState | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state, , pgrp, session, , tpgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: state!, pgrp: Number(pgrp), session: Number(session), tpgid: Number(tpgid) };
}

function fromPs(pid: number): ProcessState | undefined {
  const ps = spawnSync('ps', ['-o', 'stat=,pgid=,tpgid=,sess=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const [state, pgrp, tpgid, session] = (ps.stdout ?? '').trim().split(/\s+/);
  if (ps.status !== 0 || !state) return undefined;
  const sid = Number(session);
  return { state: state[0]!, pgrp: Number(pgrp), tpgid: Number(tpgid), session: Number.isInteger(sid) ? sid : undefined };
}

/** Whether a shell with job control made `self`'s process group: it is not the session's own, whose stop the kernel discards. */
export function isJob(self: ProcessState): boolean {
  return self.pgrp !== self.session;
}

/** Whether a stop of `self`'s process group can take and be undone: it is a job, and in the foreground. */
export function canStopJob(self: ProcessState | undefined): boolean {
  return !!self && isJob(self) && self.tpgid === self.pgrp;
}
