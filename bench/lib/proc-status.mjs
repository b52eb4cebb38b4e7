/** Resident memory of a process from /proc/<pid>/status (Linux), in MiB; NaN once it is gone. */
import fs from 'node:fs';

export function procMemory(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
  } catch {
    return { rssMiB: NaN, hwmMiB: NaN };
  }
}

/** Samples VmRSS every `everyMs` until stopped; returns the largest sample. */
export function sampleRss(pid, everyMs = 20) {
  let max = 0;
  const timer = setInterval(() => {
    const { rssMiB } = procMemory(pid);
    if (rssMiB > max) max = rssMiB;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return max;
  };
}

/** CPU time (user + system) a process has used so far, in milliseconds; NaN once it is gone. */
export function procCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on (sysconf is not reachable from Node). */
const CLOCK_TICKS = 100;
