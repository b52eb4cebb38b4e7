/**
 * Memory and CPU of the proxy from /proc (Linux). "The proxy" is the process between the harness
 * and the stand-in plus the native relay it started, if any (`ccc --supervisor` runs the byte
 * path in `ccc-relay`, a child of ccc); the stand-in agent below them is never counted.
 * Every function takes one pid or a list (see `proxyPids`) and sums.
 */
import fs from 'node:fs';

const list = (pids) => (Array.isArray(pids) ? pids : [pids]);

/**
 * `pid` and its descendants named node or ccc-relay (`ccc` runs the session in a child process of
 * its own, and that child starts the relay). Call it once the proxy is up.
 */
export function proxyPids(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'node' || comm === 'ccc-relay') children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

/** Resident memory in MiB (VmRSS, and VmHWM: the peak; summed, the peaks are an upper bound); NaN once gone. */
export function procMemory(pids) {
  let rssMiB = 0;
  let hwmMiB = 0;
  for (const pid of list(pids)) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
      rssMiB += kb('VmRSS') / 1024;
      hwmMiB += kb('VmHWM') / 1024;
    } catch {
      return { rssMiB: NaN, hwmMiB: NaN };
    }
  }
  return { rssMiB, hwmMiB };
}

/** Samples VmRSS every `everyMs` until stopped; returns the largest sample. */
export function sampleRss(pids, everyMs = 20) {
  let max = 0;
  const timer = setInterval(() => {
    const { rssMiB } = procMemory(pids);
    if (rssMiB > max) max = rssMiB;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return max;
  };
}

/** CPU time (user + system) used so far, in milliseconds; NaN once a process is gone. */
export function procCpuMs(pids) {
  let total = 0;
  for (const pid of list(pids)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which may itself contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime, stime (fields 14 and 15)
    } catch {
      return NaN;
    }
  }
  return total;
}

/** USER_HZ: 100 on every Linux architecture Node runs on (sysconf is not reachable from Node). */
const CLOCK_TICKS = 100;
