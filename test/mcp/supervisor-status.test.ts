/** supervisor_status over real files in a private config dir. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSupervisorStatus } from '../../src/mcp/tools/supervisor-status.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(file: string, value: unknown) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

describe('supervisor_status', () => {
  it('lists live sessions with iteration, last verdict and log tail; skips dead ones; reports unreadable files', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-status-'));
    const ccc = path.join(dir, 'ccc');
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    write(path.join(ccc, 'sessions', `${process.pid}.json`), {
      pid: process.pid,
      session_id: 'abc-1',
      cwd: '/work/p',
      started_at: '2026-11-22T00:00:00Z',
      command: ['claude'],
      observer_url: 'http://127.0.0.1:1/?token=t',
    });
    write(path.join(ccc, 'sessions', `${deadPid}.json`), { pid: deadPid, session_id: 'dead-1', cwd: '/x', started_at: 'x', command: 'claude' });
    write(path.join(ccc, 'sessions', 'broken.json'), '{not json');
    write(path.join(ccc, 'sessions', 'evil.json'), { pid: process.pid, session_id: '../../etc/passwd', cwd: '/', started_at: 'x', command: 'c' });
    // A session whose id is not known yet (before its first stop), started by another live process.
    write(path.join(ccc, 'sessions', `${process.ppid}.json`), {
      pid: process.ppid,
      cwd: '/work/q',
      started_at: '2026-11-22T00:01:00Z',
      command: ['claude', '--model', 'x'],
    });
    write(path.join(ccc, 'supervisor-abc-1.json'), {
      session_id: 'abc-1',
      iteration: 3,
      max_iterations: 20,
      enabled: true,
      prompt_count: 2,
      created_at: 'c',
      updated_at: '2026-11-22T00:05:00Z',
      last_verdict: { checker: 'claude', completed: false, feedback: 'add tests', at: '2026-11-22T00:05:00Z' },
    });
    write(path.join(ccc, 'supervisor-abc-1.log'), Array.from({ length: 9 }, (_, i) => `[t] [INFO] [loop] line ${i}`).join('\n') + '\n');

    const status = await readSupervisorStatus({ configDir: dir });
    expect(status.sessions).toHaveLength(2);
    expect(status.sessions.find((x) => x.pid === process.ppid)).toEqual({
      pid: process.ppid,
      cwd: '/work/q',
      startedAt: '2026-11-22T00:01:00Z',
      command: ['claude', '--model', 'x'],
    });
    expect(status.sessions.filter((x) => x.pid === process.pid)).toEqual([
      expect.objectContaining({
        pid: process.pid,
        sessionId: 'abc-1',
        cwd: '/work/p',
        iteration: 3,
        maxIterations: 20,
        enabled: true,
        promptCount: 2,
        observerUrl: 'http://127.0.0.1:1/?token=t',
        lastVerdict: { checker: 'claude', completed: false, feedback: 'add tests', at: '2026-11-22T00:05:00Z' },
        logTail: ['[t] [INFO] [loop] line 4', '[t] [INFO] [loop] line 5', '[t] [INFO] [loop] line 6', '[t] [INFO] [loop] line 7', '[t] [INFO] [loop] line 8'],
      }),
    ]);
    expect(status.problems.map((p) => path.basename(p.file)).sort()).toEqual(['broken.json', 'evil.json']);
    expect(status.summary).toContain(`session abc-1 (pid ${process.pid}, /work/p): iteration 3/20, last verdict by claude: ✗ not completed`);
    expect(status.summary).toContain(`session (id not known yet) (pid ${process.ppid}, /work/q): no review yet`);
  });

  it('says so when no session runs (no sessions directory at all)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-status-'));
    expect(await readSupervisorStatus({ configDir: dir })).toEqual({ sessions: [], problems: [], summary: 'No supervised session is running.' });
  });
});
