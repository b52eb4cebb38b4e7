/**
 * The bench's process accounting (bench/lib/proc-status.mjs): ccc starts processes long after it
 * is up (the screen worker when observers join) and ends them again, so the figures must walk
 * its process tree at every reading and count what an ended child used. A parent Node process
 * here starts its children only when told to, after the tree was made.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

interface Memory {
  rssMiB: number;
  each: Array<{ pid: number; name: string; rssMiB: number }>;
}
interface Tree {
  pids(): number[];
  memory(): Memory;
  cpuMs(): number;
}
const root = path.resolve(import.meta.dirname, '..', '..');
const { ProxyTree } = (await import(path.join(root, 'bench/lib/proc-status.mjs'))) as { ProxyTree: new (pid: number) => Tree };

/** On "stay": starts a child that waits; on "burn": a child that uses 300 ms of CPU, ends, and is reaped ("reaped"). */
const PARENT = `
const { spawn } = require('node:child_process');
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (line === 'stay') spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (line === 'burn') {
    const child = spawn(process.execPath, ['-e', 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300000);'], { stdio: 'ignore' });
    child.on('exit', () => process.stdout.write('reaped\\n'));
  }
});
`;

let parent: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  parent?.kill('SIGKILL');
  parent = undefined;
});

function startParent(): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, ['-e', PARENT]);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  parent = child;
  return { child, output: () => out };
}

describe('the bench reads ccc over its whole process tree', () => {
  it('counts a process started after the tree was made', async () => {
    const { child } = startParent();
    const tree = new ProxyTree(child.pid!);
    expect(tree.pids()).toEqual([child.pid]);
    child.stdin.write('stay\n');
    await vi.waitFor(() => expect(tree.pids()).toHaveLength(2), { timeout: 20_000 });
    const memory = tree.memory();
    expect(memory.each.map((p) => p.name)).toEqual(['ccc', 'ccc session']);
    expect(memory.rssMiB).toBeCloseTo(
      memory.each.reduce((sum, p) => sum + p.rssMiB, 0),
      6,
    );
  });

  it('counts the CPU of a child that ran and ended between two readings', async () => {
    const { child, output } = startParent();
    const tree = new ProxyTree(child.pid!);
    await vi.waitFor(() => expect(tree.cpuMs()).toBeGreaterThan(0), { timeout: 20_000 });
    const before = tree.cpuMs();
    child.stdin.write('burn\n');
    await vi.waitFor(() => expect(output()).toContain('reaped'), { timeout: 30_000 });
    expect(tree.pids()).toEqual([child.pid]);
    expect(tree.cpuMs() - before).toBeGreaterThanOrEqual(250);
  });
});
