/** The record file store: where it lives, what it keeps, and how damage is reported and survived. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpStore, openMcpStoreSafely, readMcpStore, storePath } from '../../src/mcp/storage/mcp-store.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function tempConfigDir(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-store-'));
  return dir;
}

const restart = { at: 't', reason: 'killed by SIGKILL', trigger: 'crash', previousPid: 1, newPid: 2, outcome: 'ready' } as const;

describe('mcp store', () => {
  it('creates <configDir>/ccc/mcp.jsonl (0600) in a 0700 directory and keeps questions, outcomes and restarts', () => {
    const configDir = tempConfigDir();
    const store = openMcpStore(configDir);
    store.recordQuestion({ id: 'q1', question: 'Why?', askedAt: '2026-11-22T00:00:00Z', timeoutSeconds: 60 });
    store.recordQuestion({ id: 'q2', question: 'Still there?', askedAt: '2026-11-22T00:01:00Z', timeoutSeconds: 1 });
    store.recordOutcome('q1', { outcome: 'answered', answer: 'Because.', via: 'web', at: '2026-11-22T00:00:10Z' });
    store.recordRestart('run-1', restart);
    expect(store.check()).toEqual({ ok: true });
    store.close();

    expect(fs.statSync(path.join(configDir, 'ccc')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(storePath(configDir)).mode & 0o777).toBe(0o600);
    expect(readMcpStore(configDir)).toEqual({
      feedback: [
        {
          id: 'q1',
          question: 'Why?',
          askedAt: '2026-11-22T00:00:00Z',
          timeoutSeconds: 60,
          outcome: 'answered',
          answer: 'Because.',
          via: 'web',
          settledAt: '2026-11-22T00:00:10Z',
        },
        { id: 'q2', question: 'Still there?', askedAt: '2026-11-22T00:01:00Z', timeoutSeconds: 1, outcome: 'pending' },
      ],
      restarts: [{ runId: 'run-1', ...restart }],
      badLines: [],
    });
  });

  it('keeps what an earlier run wrote: a second open appends to the same file', () => {
    const configDir = tempConfigDir();
    const first = openMcpStore(configDir);
    first.recordRestart('run-1', restart);
    first.close();
    const second = openMcpStore(configDir);
    second.recordRestart('run-2', restart);
    second.close();
    expect(readMcpStore(configDir).restarts.map((r) => r.runId)).toEqual(['run-1', 'run-2']);
  });

  it('reports lines that are not records through check(), keeps the others, and starts the next record on a line of its own', () => {
    const configDir = tempConfigDir();
    const store = openMcpStore(configDir);
    store.recordRestart('run-1', restart);
    store.close();
    fs.appendFileSync(storePath(configDir), 'not a record\n{"type":"restart","runId":"run-'); // a line, then a write cut short
    const errors: string[] = [];
    const reopened = openMcpStoreSafely(configDir, (m) => errors.push(m));
    reopened.recordRestart('run-2', restart);
    const check = reopened.check();
    reopened.close();
    expect(errors).toEqual([]);
    expect(check).toEqual({ ok: false, error: expect.stringMatching(/^2 line\(s\) of .*mcp\.jsonl are not store records \(line 2, 3\); they are skipped/) });
    expect(readMcpStore(configDir).restarts.map((r) => r.runId)).toEqual(['run-1', 'run-2']);
  });

  it('check() says so when the file was removed while open', () => {
    const configDir = tempConfigDir();
    const store = openMcpStore(configDir);
    fs.rmSync(storePath(configDir));
    expect(store.check()).toEqual({ ok: false, error: expect.stringContaining('was removed or replaced while ccc mcp had it open') });
    store.close();
  });

  it('a store that cannot be opened is reported through check() instead of failing the server', () => {
    const configDir = tempConfigDir();
    fs.writeFileSync(path.join(configDir, 'ccc'), 'a file where the directory should be');
    const errors: string[] = [];
    const store = openMcpStoreSafely(configDir, (m) => errors.push(m));
    const check = store.check();
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error).toMatch(/cannot open .*mcp\.jsonl: EEXIST/);
    expect(errors).toEqual([expect.stringMatching(/^store unavailable, continuing without it: cannot open/)]);
    store.recordQuestion({ id: 'q', question: 'q', askedAt: 't', timeoutSeconds: 1 }); // records nothing, throws nothing
  });

  it('a write that fails goes to onError and the store goes on', () => {
    const configDir = tempConfigDir();
    const errors: string[] = [];
    const store = openMcpStore(configDir, (m) => errors.push(m));
    store.close(); // its descriptor is gone: every write now fails
    store.recordRestart('run-1', restart);
    expect(errors).toEqual([expect.stringMatching(/^store write failed \(restart\): EBADF/)]);
  });
});
