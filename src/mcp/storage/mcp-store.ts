/**
 * The embedded database of `ccc mcp`: `<configDir>/ccc/mcp.db` (SQLite through better-sqlite3).
 * It keeps the questions put to the human with their outcomes, and every Worker restart, across
 * runs. The Supervisor and the Worker each open it (WAL mode and a busy timeout let two processes
 * share it); `self_test` calls `check()`.
 *
 * A database that cannot be opened never stops the server: the caller keeps a `brokenStore` that
 * records nothing and reports the cause through `check()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { RestartRecord } from '../supervisor/restart-log.js';

export type FeedbackOutcome = 'answered' | 'no_answer' | 'cancelled';

export interface FeedbackStore {
  recordQuestion(question: { id: string; question: string; askedAt: string; timeoutSeconds: number }): void;
  recordOutcome(id: string, outcome: { outcome: FeedbackOutcome; answer?: string; via?: string; at: string }): void;
}

export interface McpStore extends FeedbackStore {
  readonly path: string;
  recordRestart(runId: string, record: RestartRecord): void;
  /** An integrity check and a read of every table. */
  check(): { ok: true } | { ok: false; error: string };
  close(): void;
}

const schema = `
CREATE TABLE IF NOT EXISTS feedback (
  id TEXT PRIMARY KEY,
  question TEXT NOT NULL,
  asked_at TEXT NOT NULL,
  timeout_seconds INTEGER NOT NULL,
  outcome TEXT NOT NULL DEFAULT 'pending',
  answer TEXT,
  via TEXT,
  settled_at TEXT
);
CREATE TABLE IF NOT EXISTS restarts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL,
  at TEXT NOT NULL,
  reason TEXT NOT NULL,
  trigger TEXT NOT NULL,
  previous_pid INTEGER,
  new_pid INTEGER,
  outcome TEXT NOT NULL
);`;

export function storePath(configDir: string): string {
  return path.join(configDir, 'ccc', 'mcp.db');
}

/** Opens (creating) the database. Writes never throw: a failed write goes to `onWriteError`. */
export function openMcpStore(configDir: string, onWriteError: (message: string) => void = () => {}): McpStore {
  const file = storePath(configDir);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  try {
    fs.chmodSync(file, 0o600);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 3000');
    db.exec(schema);
  } catch (error) {
    db.close();
    throw error;
  }
  const insertQuestion = db.prepare('INSERT OR REPLACE INTO feedback (id, question, asked_at, timeout_seconds) VALUES (?, ?, ?, ?)');
  const settleQuestion = db.prepare('UPDATE feedback SET outcome = ?, answer = ?, via = ?, settled_at = ? WHERE id = ?');
  const insertRestart = db.prepare('INSERT INTO restarts (run_id, at, reason, trigger, previous_pid, new_pid, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const write = (what: string, run: () => unknown) => {
    try {
      run();
    } catch (error) {
      onWriteError(`database write failed (${what}): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    path: file,
    recordQuestion: (q) => write('question', () => insertQuestion.run(q.id, q.question, q.askedAt, q.timeoutSeconds)),
    recordOutcome: (id, o) => write('answer', () => settleQuestion.run(o.outcome, o.answer ?? null, o.via ?? null, o.at, id)),
    recordRestart: (runId, r) => write('restart', () => insertRestart.run(runId, r.at, r.reason, r.trigger, r.previousPid, r.newPid, r.outcome)),
    check() {
      try {
        const result = db.pragma('quick_check', { simple: true });
        if (result !== 'ok') return { ok: false, error: `integrity check says: ${String(result)}` };
        db.prepare('SELECT count(*) FROM feedback').get();
        db.prepare('SELECT count(*) FROM restarts').get();
        return { ok: true };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
    close: () => db.close(),
  };
}

/** Stands in for a database that could not be opened: records nothing, reports why. */
export function brokenStore(file: string, cause: unknown): McpStore {
  const error = `cannot open ${file}: ${cause instanceof Error ? cause.message : String(cause)}`;
  return {
    path: file,
    recordQuestion: () => {},
    recordOutcome: () => {},
    recordRestart: () => {},
    check: () => ({ ok: false, error }),
    close: () => {},
  };
}

/** Opens the store, or returns a broken one and says why through `onError`. */
export function openMcpStoreSafely(configDir: string, onError: (message: string) => void): McpStore {
  try {
    return openMcpStore(configDir, onError);
  } catch (cause) {
    const store = brokenStore(storePath(configDir), cause);
    const check = store.check();
    onError(`database unavailable, continuing without it: ${check.ok ? '' : check.error}`);
    return store;
  }
}
