/** The SQLite store: where it lives, what it keeps, and how a broken file is reported. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpStore, openMcpStoreSafely, storePath } from '../../src/mcp/storage/mcp-store.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('mcp store', () => {
  it('creates <configDir>/ccc/mcp.db in a 0700 directory and keeps questions and restarts', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-store-'));
    const store = openMcpStore(dir);
    store.recordQuestion({ id: 'q1', question: 'Why?', askedAt: '2026-11-22T00:00:00Z', timeoutSeconds: 60 });
    store.recordOutcome('q1', { outcome: 'answered', answer: 'Because.', via: 'web', at: '2026-11-22T00:00:10Z' });
    store.recordRestart('run-1', { at: 't', reason: 'killed by SIGKILL', trigger: 'crash', previousPid: 1, newPid: 2, outcome: 'ready' });
    expect(store.check()).toEqual({ ok: true });
    store.close();

    expect(fs.statSync(path.join(dir, 'ccc')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(storePath(dir)).mode & 0o777).toBe(0o600);
    const db = new Database(storePath(dir), { readonly: true });
    expect(db.prepare('SELECT question, outcome, answer, via FROM feedback').all()).toEqual([{ question: 'Why?', outcome: 'answered', answer: 'Because.', via: 'web' }]);
    expect(db.prepare('SELECT run_id, trigger, previous_pid, new_pid FROM restarts').all()).toEqual([{ run_id: 'run-1', trigger: 'crash', previous_pid: 1, new_pid: 2 }]);
    db.close();
  });

  it('reports a file that is not a database through check() instead of failing the server', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-store-'));
    fs.mkdirSync(path.join(dir, 'ccc'));
    fs.writeFileSync(storePath(dir), 'this is not sqlite '.repeat(100));
    const errors: string[] = [];
    const store = openMcpStoreSafely(dir, (m) => errors.push(m));
    const check = store.check();
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error).toMatch(/cannot open .*mcp\.db: file is not a database/);
    expect(errors[0]).toMatch(/database unavailable, continuing without it/);
    store.recordQuestion({ id: 'q', question: 'q', askedAt: 't', timeoutSeconds: 1 }); // records nothing, throws nothing
  });
});
