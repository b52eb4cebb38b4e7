/** `sessions/<pid>.json`: a ccc killed before it could remove its record leaves it; the next ccc removes it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerRunningSession } from '../../src/sessions/running-session.js';

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
    // The temp files of record writes: a killed ccc's goes, a live writer's stays (its rename is coming).
    fs.writeFileSync(path.join(dir, `.${dead}.json.${dead}.0badc0de.tmp`), '{"pid":');
    fs.writeFileSync(path.join(dir, `.${live}.json.${live}.0badc0de.tmp`), '{"pid":');

    const record = registerRunningSession(configDir, { pid: process.pid, cwd: '/', command: ['ccc'] });
    await vi.waitFor(() => expect(fs.existsSync(path.join(dir, `${process.pid}.json`))).toBe(true)); // written in the background
    expect(fs.readdirSync(dir).sort()).toEqual([`${live}.json`, `.${live}.json.${live}.0badc0de.tmp`, `${process.pid}.json`, 'notes.txt'].sort());
    await record.remove();
    expect(fs.existsSync(path.join(dir, `${process.pid}.json`))).toBe(false);
  });

  it('a record the disk refuses is said once on stderr; the session goes on', async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-sessions-'));
    const file = path.join(configDir, 'ccc', 'sessions', `${process.pid}.json`);
    // The record's path taken by a directory with something in it: no file can be renamed over it.
    fs.mkdirSync(path.join(file, 'in-the-way'), { recursive: true });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const record = registerRunningSession(configDir, { pid: process.pid, cwd: '/', command: ['ccc'] });
      record.update({ session_id: 'sess-1' });
      await vi.waitFor(() => expect(stderr).toHaveBeenCalled());
      record.update({ session_id: 'sess-2' });
      await record.remove();
      const said = stderr.mock.calls.map(([line]) => String(line));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^ccc: WARN: cannot write in .*sessions \(.+\); the session goes on/);
    } finally {
      stderr.mockRestore();
    }
  });
});
