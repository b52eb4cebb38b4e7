/**
 * The screen worker runs in a process of its own (src/observer/screen-process.ts), so that what it
 * allocated goes back to the system when it ends: in a worker thread it stayed in ccc's malloc
 * arenas, and observers connecting and dropping left ccc 50 MB larger (bench/observer-churn.mjs).
 * It ends when retired, and when ccc dies without closing it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startScreenMirror, type ScreenMirror } from '../../src/observer/screen-mirror.js';
import { silentLogger } from '../../src/observer/observer-logger.js';
import { repoRoot } from '../support/claude-env.js';
import { descendants, isAlive } from '../support/process-tree.js';

const screenProcesses = (root: number) =>
  descendants(root).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('screen-worker');
    } catch {
      return false;
    }
  });

let mirror: ScreenMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

it('makes screens in a child process, which ends once the mirror retires it', async () => {
  mirror = startScreenMirror({ cols: 40, rows: 5, scrollbackLines: 100, tailBytes: 1 << 16, idleWorkerMs: 20, logger: silentLogger });
  mirror.write(Buffer.from('a line\r\n'));
  const snapshot = mirror.snapshot(0, 1 << 20);
  await expect.poll(() => screenProcesses(process.pid).length, { timeout: 30_000 }).toBe(1);
  expect((await snapshot)?.data).toContain('a line');
  await expect.poll(() => screenProcesses(process.pid), { timeout: 30_000 }).toEqual([]);
}, 60_000);

// The built dist/ (npm run build), as ccc runs it.
it('ends with the process that started it, also one killed with SIGKILL', async () => {
  const script = [
    // The mirror's child does not keep a process up (unref'd): this owner stays up on its own.
    `setInterval(() => {}, 1000);`,
    `import { startScreenMirror } from ${JSON.stringify(path.join(repoRoot, 'dist/observer/screen-mirror.js'))};`,
    `const mirror = startScreenMirror({ cols: 40, rows: 5, scrollbackLines: 100, tailBytes: 65536, idleWorkerMs: 600000, logger: { warn() {}, info() {}, debug() {} } });`,
    `mirror.write(Buffer.from('x\\r\\n'));`,
    `await mirror.snapshot(0, 65536);`,
    `process.stdout.write('READY\\n');`,
  ].join('\n');
  const owner = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  owner.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  try {
    await expect.poll(() => out, { timeout: 45_000 }).toContain('READY');
    const screens = screenProcesses(owner.pid!);
    expect(screens).toHaveLength(1);
    owner.kill('SIGKILL');
    await expect.poll(() => isAlive(screens[0]!), { timeout: 30_000 }).toBe(false);
  } finally {
    owner.kill('SIGKILL');
  }
}, 90_000);
