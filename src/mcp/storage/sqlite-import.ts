/**
 * The one-time import of the SQLite store earlier versions kept (`mcp.db`, written through
 * better-sqlite3 in WAL mode) into the record file. It reads with a WebAssembly SQLite
 * (node-sqlite3-wasm: no native build), loaded only here, and from a private copy: the earlier
 * file stays exactly as it was. The copy takes the `-wal` file along, so what a killed process
 * left only there is imported too.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { encodeRecord, type StoreRecord } from './store-records.js';

interface FeedbackColumns {
  id: string;
  question: string;
  asked_at: string;
  timeout_seconds: number;
  outcome: string;
  answer: string | null;
  via: string | null;
  settled_at: string | null;
}

interface RestartColumns {
  run_id: string;
  at: string;
  reason: string;
  trigger: string;
  previous_pid: number | null;
  new_pid: number | null;
  outcome: string;
}

/**
 * Writes `target` with every question, outcome and restart of `sqliteFile`, all at once: it
 * appears complete or not at all. When another process imported first, its file stays.
 */
export function importSqliteStore(sqliteFile: string, target: string): { questions: number; restarts: number } {
  const { feedback, restarts } = readSqliteStore(sqliteFile);
  const records = [...feedback.flatMap(feedbackRecords), ...restarts.map(restartRecord)];
  const temporary = `${target}.import-${process.pid}`;
  try {
    const fd = fs.openSync(temporary, 'w', 0o600);
    try {
      fs.writeFileSync(fd, records.map(encodeRecord).join(''));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temporary, target); // unlike rename, never replaces a store another process made meanwhile
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return { questions: feedback.length, restarts: restarts.length };
}

function readSqliteStore(sqliteFile: string): { feedback: FeedbackColumns[]; restarts: RestartColumns[] } {
  const copy = fs.mkdtempSync(path.join(path.dirname(sqliteFile), '.mcp-import-'));
  try {
    const db = path.join(copy, 'mcp.db');
    fs.copyFileSync(sqliteFile, db);
    if (fs.existsSync(`${sqliteFile}-wal`)) fs.copyFileSync(`${sqliteFile}-wal`, `${db}-wal`);
    const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
    const database = new Database(db, { fileMustExist: true, readOnly: true });
    try {
      // The WebAssembly build has no shared memory for the WAL index: exclusive mode keeps it in the heap.
      database.exec('PRAGMA locking_mode = EXCLUSIVE');
      const feedback = database.all(
        'SELECT id, question, asked_at, timeout_seconds, outcome, answer, via, settled_at FROM feedback ORDER BY rowid',
      ) as unknown as FeedbackColumns[];
      const restarts = database.all(
        'SELECT run_id, at, reason, trigger, previous_pid, new_pid, outcome FROM restarts ORDER BY id',
      ) as unknown as RestartColumns[];
      return { feedback, restarts };
    } finally {
      database.close();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

function feedbackRecords(row: FeedbackColumns): StoreRecord[] {
  const question: StoreRecord = { type: 'question', id: row.id, question: row.question, askedAt: row.asked_at, timeoutSeconds: row.timeout_seconds };
  if (row.outcome !== 'answered' && row.outcome !== 'no_answer' && row.outcome !== 'cancelled') return [question];
  return [
    question,
    {
      type: 'outcome',
      id: row.id,
      outcome: row.outcome,
      ...(row.answer === null ? {} : { answer: row.answer }),
      ...(row.via === null ? {} : { via: row.via }),
      at: row.settled_at ?? row.asked_at,
    },
  ];
}

function restartRecord(row: RestartColumns): StoreRecord {
  return {
    type: 'restart',
    runId: row.run_id,
    at: row.at,
    reason: row.reason,
    trigger: row.trigger,
    previousPid: row.previous_pid,
    newPid: row.new_pid,
    outcome: row.outcome,
  };
}
