/**
 * Linux /proc walks for the "nothing outlives ccc" tests: a process's live descendants, and
 * which of a set of pids are still alive (zombies, which PID 1 here may never reap, count as gone).
 */
import fs from 'node:fs';

function stat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

export function liveOnes(pids: number[]): number[] {
  return pids.filter((pid) => {
    const info = stat(pid);
    return info !== undefined && info.state !== 'Z';
  });
}

/** Every live descendant of `root` (children, their children, …), not `root` itself. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = stat(Number(entry));
    if (!info || info.state === 'Z') continue;
    parents.set(info.ppid, [...(parents.get(info.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) for (const child of parents.get(queue.shift()!) ?? []) found.push(child), queue.push(child);
  return found;
}
