/**
 * The store of `ccc mcp`: `<configDir>/ccc/mcp.jsonl`, one JSON record per line (store-records.ts).
 * It keeps the questions put to the human with their outcomes, and every Worker restart, across
 * runs; nothing in ccc reads them back but `self_test`'s check, so an append-only file is all it
 * needs, and it needs no native module. The Keeper and the Worker each hold it open for
 * appending: every record is one write(2) to an O_APPEND file, so the two never interleave and a
 * crash (kill -9 included) leaves every finished record whole; each is flushed to the disk before
 * the call returns. A store from before (SQLite, `mcp.db`) is imported once (sqlite-import.ts).
 *
 * A store that cannot be opened never stops the server: the caller keeps a `brokenStore` that
 * records nothing and reports the cause through `check()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RestartRecord } from '../keeper/restart-log.js';
import { importSqliteStore } from './sqlite-import.js';
import { encodeRecord, foldRecords, type StoreRecord } from './store-records.js';
import { errorText } from '../../errors.js';

export type FeedbackOutcome = 'answered' | 'no_answer' | 'cancelled';

export interface FeedbackStore {
  recordQuestion(question: { id: string; question: string; askedAt: string; timeoutSeconds: number }): void;
  recordOutcome(id: string, outcome: { outcome: FeedbackOutcome; answer?: string; via?: string; at: string }): void;
}

export interface McpStore extends FeedbackStore {
  readonly path: string;
  recordRestart(runId: string, record: RestartRecord): void;
  /** Reads every record back: the file is still the one open, and every line of it is a record. */
  check(): { ok: true } | { ok: false; error: string };
  close(): void;
}

export function storePath(configDir: string): string {
  return path.join(configDir, 'ccc', 'mcp.jsonl');
}

/** Where the SQLite store of earlier versions lived; imported once, then left as it was. */
export function sqliteStorePath(configDir: string): string {
  return path.join(configDir, 'ccc', 'mcp.db');
}

/**
 * Opens (creating) the store. Writes never throw: a failed write, like a failed import of the
 * SQLite store, goes to `onError`, and the store goes on.
 */
export function openMcpStore(configDir: string, onError: (message: string) => void = () => {}): McpStore {
  const file = storePath(configDir);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  importOnce(sqliteStorePath(configDir), file, onError);
  const fd = fs.openSync(file, 'a+', 0o600);
  // A write cut short (a power loss, a full disk) leaves a line without its end: the next record starts on a line of its own.
  let needsNewline = false;
  try {
    fs.fchmodSync(fd, 0o600);
    needsNewline = endsWithoutNewline(fd);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  const append = (what: string, record: StoreRecord) => {
    try {
      writeAll(fd, Buffer.from((needsNewline ? '\n' : '') + encodeRecord(record)));
      needsNewline = false;
      fs.fdatasyncSync(fd);
    } catch (error) {
      needsNewline = true;
      onError(`store write failed (${what}): ${errorText(error)}`);
    }
  };
  return {
    path: file,
    recordQuestion: (q) => append('question', { type: 'question', ...q }),
    recordOutcome: (id, o) => append('answer', { type: 'outcome', id, ...o }),
    recordRestart: (runId, r) => append('restart', { type: 'restart', runId, ...r }),
    check: () => checkStore(file, fd),
    close: () => fs.closeSync(fd),
  };
}

function importOnce(sqliteFile: string, file: string, onError: (message: string) => void): void {
  if (fs.existsSync(file) || !fs.existsSync(sqliteFile)) return;
  try {
    importSqliteStore(sqliteFile, file);
  } catch (error) {
    onError(`could not import the earlier store ${sqliteFile} (${errorText(error)}); it is left as it was, and ${file} starts empty`);
  }
}

function endsWithoutNewline(fd: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

function writeAll(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.length;) offset += fs.writeSync(fd, data, offset);
}

function checkStore(file: string, fd: number): { ok: true } | { ok: false; error: string } {
  try {
    const onDisk = fs.statSync(file, { throwIfNoEntry: false });
    const open = fs.fstatSync(fd);
    if (onDisk?.ino !== open.ino || onDisk.dev !== open.dev) {
      return { ok: false, error: `${file} was removed or replaced while ccc mcp had it open: records go nowhere until ccc mcp restarts` };
    }
    const { badLines } = foldRecords(fs.readFileSync(file, 'utf8'));
    if (badLines.length > 0) {
      const shown = badLines.slice(0, 5).join(', ') + (badLines.length > 5 ? ', …' : '');
      return {
        ok: false,
        error: `${badLines.length} line(s) of ${file} are not store records (line ${shown}); they are skipped when read, the other records are intact; delete those lines to clear this`,
      };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

/** Stands in for a store that could not be opened: records nothing, reports why. */
export function brokenStore(file: string, cause: unknown): McpStore {
  const error = `cannot open ${file}: ${errorText(cause)}`;
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
    onError(`store unavailable, continuing without it: ${check.ok ? '' : check.error}`);
    return store;
  }
}

/** Everything the store holds, for `ccc doctor` and tests. */
export function readMcpStore(configDir: string): ReturnType<typeof foldRecords> {
  return foldRecords(fs.readFileSync(storePath(configDir), 'utf8'));
}
