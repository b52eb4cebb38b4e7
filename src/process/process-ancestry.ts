/**
 * Who started this process: its parent, and the process a hook belongs to. Claude Code runs a
 * hook's command through a shell (which may or may not exec it), so the process that ran the hook
 * is the first ancestor that is not a shell. Named by its pid and its start time, so that a pid the
 * system gave to another process since never passes for it. Read from /proc on Linux, from ps(1)
 * elsewhere; undefined where neither can tell.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The executable's name as the kernel reports it (`comm`). */
  name: string;
  /** When it started, in the system's own unit (clock ticks since boot on Linux): equal only for the same process. */
  startTime: string;
}

export type ReadProcessInfo = (pid: number) => ProcessInfo | undefined;

const readProcessInfo: ReadProcessInfo = (pid) => (fs.existsSync('/proc/self/stat') ? fromProc(pid) : fromPs(pid));

/** `pid (comm) state ppid …` with the start time in field 22; comm may hold spaces and parentheses. */
function fromProc(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  const startTime = fields[19];
  if (!Number.isInteger(ppid) || !startTime) return undefined;
  return { pid, ppid, name: stat.slice(open + 1, close), startTime };
}

function fromPs(pid: number): ProcessInfo | undefined {
  const ps = spawnSync('ps', ['-o', 'ppid=,lstart=,comm=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const match = /^\s*(\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.+?)\s*$/.exec(ps.stdout ?? '');
  if (ps.status !== 0 || !match) return undefined;
  return { pid, ppid: Number(match[1]), startTime: match[2]!, name: path.basename(match[3]!) };
}

/** The shells Claude Code may run a hook's command with (`sh -c …`, the user's shell). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'fish']);

/** How many shells deep a hook's command may sit under the process that ran it. */
const MAX_SHELLS = 3;

/** The process that ran this one as a hook: the first ancestor that is not a shell; undefined when it cannot be told. */
export function hookOwner(read: ReadProcessInfo = readProcessInfo, parent = process.ppid): ProcessInfo | undefined {
  let info = read(parent);
  for (let i = 0; info && SHELLS.has(info.name) && i < MAX_SHELLS; i++) {
    if (info.ppid <= 1) return undefined;
    info = read(info.ppid);
  }
  return info && !SHELLS.has(info.name) ? info : undefined;
}

/** `<pid>-<start time>`: one process, never two, across the pids the system reuses; fit for a file name. */
export function processKey(info: Pick<ProcessInfo, 'pid' | 'startTime'>): string {
  return `${info.pid}-${info.startTime.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/** What may stand between ccc and a claude it started: its helpers (native/), and the job shell of the Node proxy. */
const CCC_HELPERS = new Set(['ccc-lifeline', 'ccc-relay', 'sh']);

/**
 * Whether the process `owner` (a hook's claude, `hookOwner`) was started by the process `cccPid`
 * itself, with at most ccc's helpers between them: not by a test suite, a shell or another claude
 * that runs somewhere under that ccc.
 */
export function startedBy(owner: ProcessInfo, cccPid: number, read: ReadProcessInfo = readProcessInfo): boolean {
  let at: ProcessInfo | undefined = owner;
  for (let i = 0; at && i < 4; i++) {
    if (at.ppid === cccPid) return true;
    at = read(at.ppid);
    if (!at || !CCC_HELPERS.has(at.name)) return false;
  }
  return false;
}

/** Whether `pid` is one of this process's ancestors (an enclosing ccc). */
export function isAncestor(pid: number, read: ReadProcessInfo = readProcessInfo, self = process.pid): boolean {
  for (let at = read(self)?.ppid, i = 0; at && at > 1 && i < 64; i++) {
    if (at === pid) return true;
    at = read(at)?.ppid;
  }
  return false;
}
