/**
 * Linux /proc probes for the tree-kill and "nothing outlives ccc" tests. A killed process whose
 * parent is gone may stay a zombie here (PID 1 of this machine does not reap), and
 * `process.kill(pid, 0)` succeeds on a zombie, so "alive" means: signalable and not a zombie.
 */
import fs from 'node:fs';

function stat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) in parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

const live = (info: ReturnType<typeof stat>) => info !== undefined && info.state !== 'Z';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return live(stat(pid));
}

/** The parent of a live or zombie process. */
export function parentOf(pid: number): number | undefined {
  return stat(pid)?.ppid;
}

/** Which of `pids` are still alive. */
export function liveOnes(pids: number[]): number[] {
  return pids.filter((pid) => live(stat(pid)));
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Live (non-zombie) processes of a process group. */
export function liveGroupMembers(pgid: number): number[] {
  return allPids().filter((pid) => {
    const info = stat(pid);
    return live(info) && info!.pgrp === pgid;
  });
}

/** Every live descendant of `root` (children, their children, …), not `root` itself, each with its depth (a child is 1), parents first. */
export function descendantTree(root: number): Array<{ pid: number; depth: number }> {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const info = stat(pid);
    if (!live(info)) continue;
    children.set(info!.ppid, [...(children.get(info!.ppid) ?? []), pid]);
  }
  const found: Array<{ pid: number; depth: number }> = [];
  const walk = (pid: number, depth: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push({ pid: child, depth });
      walk(child, depth + 1);
    }
  };
  walk(root, 1);
  return found;
}

/** Every live descendant of `root` (children, their children, …), not `root` itself. */
export function descendants(root: number): number[] {
  return descendantTree(root).map((d) => d.pid);
}
