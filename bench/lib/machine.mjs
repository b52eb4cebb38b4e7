/** What the figures were measured on: CPU model, cores, Node, load. */
import fs from 'node:fs';
import os from 'node:os';

export function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {
    // not Linux: os.cpus() is what there is
  }
  return {
    cpu,
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export function loadAverage() {
  return os.loadavg().map((x) => Math.round(x * 100) / 100);
}
