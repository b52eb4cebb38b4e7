/**
 * Memory and CPU of the proxy from /proc (Linux). "The proxy" is the process between the harness
 * and the stand-in plus every process of ccc's below it: ccc runs the session in a child process,
 * that child starts the native relay and, while observers join, the screen worker (a process
 * started long after the proxy is up, and ended again). The stand-in agent below them is never
 * counted. So the tree is walked anew at every reading (`ProxyTree`), never listed once.
 */
import fs from 'node:fs';

/** The names of ccc's processes: Node (ccc, its session, the screen worker) and the relay. */
const COUNTED = new Set(['node', 'ccc-relay']);

/** pid, command name, parent pid and CPU fields of one /proc/<pid>/stat; undefined once gone. */
function readStat(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (i) => Number(fields[i]);
  return {
    pid,
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ppid: ticks(1),
    // utime, stime (fields 14, 15), cutime, cstime (16, 17: children this one has waited for).
    cpuMs: ((ticks(11) + ticks(12)) * 1000) / CLOCK_TICKS,
    reapedCpuMs: ((ticks(13) + ticks(14)) * 1000) / CLOCK_TICKS,
  };
}

/** `root` and its descendants named node or ccc-relay, as they are now. */
function proxyPids(root) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && COUNTED.has(stat.comm)) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat.pid]);
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

/** What a process of ccc's is, for the per-process figures: the launcher, the session, the screen worker, the relay. */
function processName(pid, root) {
  const stat = readStat(pid);
  if (!stat) return 'gone';
  if (stat.comm !== 'node') return stat.comm;
  if (pid === root) return 'ccc';
  let command = '';
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // gone: named by its place only
  }
  return command.includes('screen-worker') ? 'screen worker' : 'ccc session';
}

/** VmRSS and VmHWM (the peak) of one process in MiB; undefined once gone. */
function readMemory(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * The proxy's processes under `root`, walked anew at every reading, so a process ccc starts
 * later (the screen worker) is counted while it lives. For a single process (`frames-worker`),
 * `new ProxyTree(process.pid)` reads just that one.
 */
export class ProxyTree {
  constructor(root) {
    this.root = root;
  }

  pids() {
    return proxyPids(this.root);
  }

  /**
   * RSS and VmHWM summed over the processes alive now (the summed peaks are an upper bound; a
   * process that has ended is in neither: `sampleRss` catches it while it lived), and each
   * process's own; NaN once the root is gone.
   */
  memory() {
    const each = [];
    for (const pid of this.pids()) {
      const memory = readMemory(pid);
      if (memory) each.push({ pid, name: processName(pid, this.root), ...memory });
      else if (pid === this.root) return { rssMiB: NaN, hwmMiB: NaN, each: [] };
    }
    const sum = (key) => each.reduce((total, p) => total + p[key], 0);
    return { rssMiB: sum('rssMiB'), hwmMiB: sum('hwmMiB'), each };
  }

  /**
   * CPU time (user + system) the tree has used so far, in ms: each process's own plus what its
   * ended children used (cutime, cstime), so a screen worker that ran and ended between two
   * readings still counts. Take differences: the children waited for before the first reading (a
   * start-up `stty`) are in both. The stand-in agent is reaped only once the variant ends. NaN
   * once the root is gone.
   */
  cpuMs() {
    let total = 0;
    for (const pid of this.pids()) {
      const stat = readStat(pid);
      if (stat) total += stat.cpuMs + stat.reapedCpuMs;
      else if (pid === this.root) return NaN;
    }
    return total;
  }
}

/** Samples the tree's summed VmRSS every `everyMs`, walking it each time, until stopped; returns the largest sample. */
export function sampleRss(tree, everyMs = 20) {
  let max = 0;
  const timer = setInterval(() => {
    const { rssMiB } = tree.memory();
    if (rssMiB > max) max = rssMiB;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return max;
  };
}

/** USER_HZ: 100 on every Linux architecture Node runs on (sysconf is not reachable from Node). */
const CLOCK_TICKS = 100;
