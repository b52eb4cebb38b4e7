/**
 * A store written by the SQLite store of earlier versions (test/fixtures/mcp-sqlite-store/, made
 * with that code and better-sqlite3) is imported once when the record file does not exist yet,
 * rows left only in the WAL by a killed process included, and the old file is left as it was.
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpStore, openMcpStoreSafely, readMcpStore, sqliteStorePath, storePath } from '../../src/mcp/storage/mcp-store.js';
import { repoRoot } from '../support/claude-env.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'mcp-sqlite-store');

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A config dir holding the fixture's files as `ccc/mcp.db*`. */
function withSqliteStore(fixture: 'closed' | 'killed'): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-import-'));
  fs.mkdirSync(path.join(dir, 'ccc'));
  for (const name of fs.readdirSync(path.join(fixtures, fixture))) fs.copyFileSync(path.join(fixtures, fixture, name), path.join(dir, 'ccc', name));
  return dir;
}

function digests(configDir: string): Record<string, string> {
  const files = fs.readdirSync(path.join(configDir, 'ccc')).filter((name) => name.startsWith('mcp.db'));
  return Object.fromEntries(
    files.map((name) => [
      name,
      crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(configDir, 'ccc', name)))
        .digest('hex'),
    ]),
  );
}

const expected = {
  feedback: [
    {
      id: 'q-answered',
      question: 'Which port should the dev server use?',
      askedAt: '2026-11-20T10:00:00.000Z',
      timeoutSeconds: 300,
      outcome: 'answered',
      answer: '8080',
      via: 'web',
      settledAt: '2026-11-20T10:01:00.000Z',
    },
    {
      id: 'q-away',
      question: 'Anyone there?\nSecond line, «quoted», ✓',
      askedAt: '2026-11-20T11:00:00.000Z',
      timeoutSeconds: 1,
      outcome: 'no_answer',
      settledAt: '2026-11-20T11:00:01.000Z',
    },
    { id: 'q-pending', question: 'Still deciding?', askedAt: '2026-11-20T13:00:00.000Z', timeoutSeconds: 600, outcome: 'pending' },
  ],
  restarts: [
    { runId: 'run-1', at: '2026-11-20T12:00:00.000Z', reason: 'worker killed by SIGKILL', trigger: 'crash', previousPid: 101, newPid: 102, outcome: 'ready' },
    {
      runId: 'run-2',
      at: '2026-11-20T13:00:05.000Z',
      reason: 'health check failed',
      trigger: 'health_check',
      previousPid: 102,
      newPid: null,
      outcome: 'failed',
    },
  ],
  badLines: [],
};

describe('import of the SQLite store', () => {
  it.each(['closed', 'killed'] as const)('a store its process %s: every question, outcome and restart, the old files untouched', (fixture) => {
    const configDir = withSqliteStore(fixture);
    const before = digests(configDir);
    const errors: string[] = [];
    const store = openMcpStore(configDir, (m) => errors.push(m));
    store.recordRestart('run-3', { at: 't', reason: 'r', trigger: 'crash', previousPid: 1, newPid: 2, outcome: 'ready' });
    expect(store.check()).toEqual({ ok: true });
    store.close();
    expect(errors).toEqual([]);
    const contents = readMcpStore(configDir);
    expect({ ...contents, restarts: contents.restarts.slice(0, 2) }).toEqual(expected);
    expect(digests(configDir)).toEqual(before);
    expect(fs.readdirSync(path.join(configDir, 'ccc')).sort()).toEqual([...Object.keys(before), 'mcp.jsonl'].sort()); // no copy left behind
  });

  it('imports once: a later open leaves the record file alone', () => {
    const configDir = withSqliteStore('closed');
    openMcpStore(configDir).close();
    fs.writeFileSync(storePath(configDir), '');
    openMcpStore(configDir).close();
    expect(readMcpStore(configDir).feedback).toEqual([]);
  });

  it('a file that is not SQLite: said through onError, left as it was, the new store works', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-import-'));
    fs.mkdirSync(path.join(dir, 'ccc'));
    fs.writeFileSync(sqliteStorePath(dir), 'this is not sqlite '.repeat(100));
    const errors: string[] = [];
    const store = openMcpStoreSafely(dir, (m) => errors.push(m));
    expect(store.check()).toEqual({ ok: true });
    store.close();
    expect(errors).toEqual([
      expect.stringMatching(/^could not import the earlier store .*mcp\.db \(.*not a database.*\); it is left as it was, and .*mcp\.jsonl starts empty$/),
    ]);
    expect(fs.readFileSync(sqliteStorePath(dir), 'utf8')).toBe('this is not sqlite '.repeat(100));
  });

  it('two processes opening at once import it once between them, and neither loses what it wrote after', async () => {
    const configDir = withSqliteStore('killed');
    const writer = path.join(repoRoot, 'test', 'fixtures', 'store-writer.mjs');
    const runs = ['a', 'b'].map(
      (name) =>
        new Promise<number | null>((resolve) => {
          const child = fork(writer, [configDir, '200', name], { stdio: 'ignore' });
          child.on('exit', resolve);
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0]);
    const contents = readMcpStore(configDir);
    expect(contents.feedback).toEqual(expected.feedback);
    expect(contents.restarts.slice(0, 2)).toEqual(expected.restarts);
    const written = contents.restarts.slice(2).map((r) => r.runId);
    expect(written.filter((id) => id.startsWith('a-'))).toEqual(Array.from({ length: 200 }, (_, i) => `a-${i + 1}`));
    expect(written.filter((id) => id.startsWith('b-'))).toEqual(Array.from({ length: 200 }, (_, i) => `b-${i + 1}`));
  });
});
