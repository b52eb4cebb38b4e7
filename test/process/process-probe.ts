/**
 * Linux /proc probes for the tree-kill tests. A killed process whose parent is gone may stay a
 * zombie here (PID 1 of this machine does not reap), and `process.kill(pid, 0)` succeeds on a
 * zombie, so "alive" means: signalable and not a zombie.
 */
import fs from 'node:fs';

function stat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) in parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const info = stat(pid);
  return info !== undefined && info.state !== 'Z';
}

/** Live (non-zombie) processes of a process group. */
export function liveGroupMembers(pgid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const info = stat(pid);
      return info !== undefined && info.pgrp === pgid && info.state !== 'Z';
    });
}
