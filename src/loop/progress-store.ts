/**
 * Where the no-progress guard keeps its short history. In hook mode every stop is a new `ccc`
 * process, so the history must outlive the process: `<config dir>/ccc/progress-<session_id>.json`,
 * beside the session state, replaced atomically (a reader never sees half a file). Claude Code
 * runs one Stop hook of a session at a time, so no lock is needed. The in-memory store is the fake
 * for unit tests.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorText } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-file.js';
import { isSurvivableWriteError, warnWriteFailed } from '../state/write-failure.js';
import { cccDir, checkSessionId } from '../state/paths.js';

export interface ProgressEntry {
  /** The review iteration that gave this verdict (a lower one than the last means a new task). */
  iteration: number;
  checker: string;
  /** The normalized words of the feedback (see feedback-similarity.ts). */
  tokens: string[];
  fingerprint: string;
  at: string;
}

export interface ProgressStore {
  load(sessionId: string): Promise<ProgressEntry[]>;
  save(sessionId: string, entries: ProgressEntry[]): Promise<void>;
}

export function progressPath(configDir: string, sessionId: string): string {
  return path.join(cccDir(configDir), `progress-${checkSessionId(sessionId)}.json`);
}

/** Where a damaged history is said (the session's log). */
interface ProgressWarnings {
  warn(message: string, fields?: Record<string, unknown>): void;
}

export function fileProgressStore(configDir: string, logger?: ProgressWarnings): ProgressStore {
  // Histories the disk refused (full, read-only): kept here, newer than the file, for the rest of the process.
  const unsaved = new Map<string, ProgressEntry[]>();
  // A damaged history only means the guard starts counting again; it must never stop a session. Said once per file.
  const damaged = new Set<string>();
  const said = (file: string, message: string): void => {
    if (damaged.has(file)) return;
    damaged.add(file);
    logger?.warn(`the no-progress guard's history ${message}`, { file });
  };
  const counting = (file: string, why: string): ProgressEntry[] => (said(file, `${why}; the guard counts again from this stop`), []);
  return {
    async load(sessionId) {
      const kept = unsaved.get(sessionId);
      if (kept) return [...kept];
      const file = progressPath(configDir, sessionId);
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch (error) {
        // None yet is the usual case, not a damage.
        return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : counting(file, `cannot be read (${errorText(error)})`);
      }
      let parsed: { entries?: unknown };
      try {
        parsed = JSON.parse(text) as { entries?: unknown };
      } catch (error) {
        return counting(file, `is not JSON (${errorText(error)})`);
      }
      if (!Array.isArray(parsed?.entries)) return counting(file, 'has no list of entries');
      const entries = parsed.entries.filter(isEntry);
      if (entries.length < parsed.entries.length) said(file, `has ${parsed.entries.length - entries.length} damaged entries; the guard counts on without them`);
      return entries;
    },
    async save(sessionId, entries) {
      if (unsaved.has(sessionId)) return void unsaved.set(sessionId, [...entries]);
      const file = path.join(configDir, 'ccc', `progress-${checkSessionId(sessionId)}.json`);
      try {
        await writeFileAtomic(progressPath(configDir, sessionId), `${JSON.stringify({ entries }, null, 2)}\n`);
      } catch (error) {
        if (!isSurvivableWriteError(error)) throw error;
        unsaved.set(sessionId, [...entries]);
        warnWriteFailed(file, error);
      }
    },
  };
}

export function memoryProgressStore(): ProgressStore & { readonly sessions: Map<string, ProgressEntry[]> } {
  const sessions = new Map<string, ProgressEntry[]>();
  return {
    sessions,
    async load(sessionId) {
      return [...(sessions.get(sessionId) ?? [])];
    },
    async save(sessionId, entries) {
      sessions.set(sessionId, [...entries]);
    },
  };
}

function isEntry(value: unknown): value is ProgressEntry {
  if (value === null || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.iteration === 'number' &&
    typeof e.checker === 'string' &&
    typeof e.fingerprint === 'string' &&
    Array.isArray(e.tokens) &&
    e.tokens.every((t) => typeof t === 'string')
  );
}
