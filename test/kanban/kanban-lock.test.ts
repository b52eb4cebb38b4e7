/** One ccc kanban per kanban file; a crashed owner's lock is taken over, with its agent stopped. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isCccError } from '../../src/errors.js';
import { identify } from '../../src/kanban/agent-process.js';
import { fileRef } from '../../src/kanban/kanban-file.js';
import { lockFileOf, lockKanban } from '../../src/kanban/kanban-lock.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function setup() {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-lock-')));
  return fileRef(path.join(dir, 'kanban.yaml'), dir);
}

/** A pid that surely names no process: a child that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('close', r));
  return child.pid!;
}

describe('lockKanban', () => {
  it('refuses a second runner while the first one lives, and frees the file on release', async () => {
    const kanban = setup();
    const lock = await lockKanban(kanban);
    const error = await lockKanban(kanban, { pid: process.pid + 1 }).catch((e: unknown) => e);
    expect(isCccError(error) && error.code).toBe('KANBAN_INVALID');
    expect((error as Error).message).toMatch(
      new RegExp(`^Another ccc kanban \\(pid ${process.pid}, since .*\\) is running the workflow of kanban\\.yaml\\. Wait for it`),
    );
    await lock.release();
    expect(fs.existsSync(lockFileOf(kanban.path))).toBe(false);
  });

  it('is one lock per file, whichever symlink or path names it', async () => {
    const kanban = setup();
    fs.writeFileSync(kanban.path, 'phase: execute\ncurrent: null\ntasks: []\n');
    fs.symlinkSync('kanban.yaml', path.join(dir, 'board.yaml'));
    fs.mkdirSync(path.join(dir, 'other'));
    fs.symlinkSync('../board.yaml', path.join(dir, 'other', 'chain.yaml'));
    const lock = await lockKanban(fileRef('board.yaml', dir));
    expect(lock.file).toBe(lockFileOf(kanban.path));
    for (const name of ['kanban.yaml', 'board.yaml', 'other/chain.yaml', 'other/../kanban.yaml']) {
      const error = await lockKanban(fileRef(name, dir), { pid: process.pid + 1 }).catch((e: unknown) => e);
      expect(isCccError(error) && error.code, name).toBe('KANBAN_INVALID');
    }
    const viaLink = await lockKanban(fileRef('other/chain.yaml', dir), { pid: process.pid + 1 }).catch((e: unknown) => e);
    expect((viaLink as Error).message).toContain(`is running the workflow of other/chain.yaml (a link to ${path.relative(process.cwd(), kanban.path)})`);
    await lock.release();
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.ccc-lock'))).toEqual([]);
  });

  it('takes over the lock of a dead owner and stops the agent it left running', async () => {
    const kanban = setup();
    const agent = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((r) => agent.on('exit', (_code, signal) => r(signal)));
    const identity = identify(agent.pid!);
    expect(identity).toBeDefined();
    fs.writeFileSync(lockFileOf(kanban.path), JSON.stringify({ pid: await deadPid(), started_at: 'then', agent: identity }));
    const notes: string[] = [];
    const lock = await lockKanban(kanban, { onNote: (n) => notes.push(n) });
    expect(await exited).toBe('SIGTERM');
    expect(notes).toEqual([
      expect.stringMatching(new RegExp(`^stopped the agent \\(pid ${agent.pid}\\) that the interrupted run \\(pid \\d+\\) left running$`)),
    ]);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('never signals a process that merely reuses a recorded pid', async () => {
    const kanban = setup();
    const stranger = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    try {
      fs.writeFileSync(lockFileOf(kanban.path), JSON.stringify({ pid: await deadPid(), started_at: 'then', agent: { pid: stranger.pid, start_time: '1' } }));
      const lock = await lockKanban(kanban);
      // Still running, not a zombie: nothing signalled it.
      const stat = fs.readFileSync(`/proc/${stranger.pid}/stat`, 'utf8');
      expect(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)).toBe('S');
      await lock.release();
    } finally {
      stranger.kill('SIGKILL');
    }
  });

  it('records the running agent in the lock file and clears it when the agent ends', async () => {
    const kanban = setup();
    const lock = await lockKanban(kanban);
    const agentInFile = () => JSON.parse(fs.readFileSync(lock.file, 'utf8')).agent as unknown;
    lock.agentStarted(process.pid);
    await vi.waitFor(() => expect(agentInFile()).toEqual(identify(process.pid)), { timeout: 30_000 });
    lock.agentEnded();
    await vi.waitFor(() => expect(agentInFile()).toBeUndefined(), { timeout: 30_000 });
    lock.agentStarted(process.pid);
    await lock.release(); // waits for the queued write, then removes the file
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it('a lock the disk will not update is said once, with what it costs; the run goes on', async () => {
    const kanban = setup();
    const warnings: string[] = [];
    const lock = await lockKanban(kanban, { onWarning: (w) => warnings.push(w) });
    // The lock's path taken by a directory with something in it: no file can be renamed over it.
    fs.rmSync(lock.file);
    fs.mkdirSync(path.join(lock.file, 'in-the-way'), { recursive: true });
    lock.agentStarted(process.pid);
    lock.agentEnded();
    lock.agentStarted(process.pid);
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    await lock.release();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^cannot update the lock ${lock.file} \\(.+\\): should this run be killed, the next one will not stop the agent it leaves running$`),
    );
  });
});
