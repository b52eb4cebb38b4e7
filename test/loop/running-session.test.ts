/** `sessions/<pid>.json`: a ccc killed before it could remove its record leaves it; the next ccc removes it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerRunningSession } from '../../src/loop/running-session.js';

describe('registerRunningSession', () => {
  let configDir: string;
  afterEach(() => fs.rmSync(configDir, { recursive: true, force: true }));

  it('removes the records of sessions whose process is gone and keeps the live ones', async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-sessions-'));
    const dir = path.join(configDir, 'ccc', 'sessions');
    fs.mkdirSync(dir, { recursive: true });
    const dead = spawnSync('true').pid; // exited and reaped: nobody has this pid now
    const live = process.ppid;
    for (const pid of [dead, live]) fs.writeFileSync(path.join(dir, `${pid}.json`), JSON.stringify({ pid, cwd: '/', started_at: '', command: [] }));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a record');

    const record = registerRunningSession(configDir, { pid: process.pid, cwd: '/', command: ['ccc'] });
    await vi.waitFor(() => expect(fs.existsSync(path.join(dir, `${process.pid}.json`))).toBe(true)); // written in the background
    expect(fs.readdirSync(dir).sort()).toEqual([`${live}.json`, `${process.pid}.json`, 'notes.txt'].sort());
    await record.remove();
    expect(fs.existsSync(path.join(dir, `${process.pid}.json`))).toBe(false);
  });
});
