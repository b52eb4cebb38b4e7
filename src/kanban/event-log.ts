/**
 * Kanban's event log: `SUPERVISOR_LOG.md` beside the kanban file, under `## Supervisor Log`
 * (docs/design/kanban.md; those user-facing names stay), one "Retry Event" per rescheduled agent in the
 * Markdown format docs/kanban.md shows, a "Failure Event" when the retries are used up, and under
 * `--supervise` a "Review Limit Event" when the reviews are. Appended with an atomic rewrite, so a
 * crash never leaves half an entry.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeThrough, type FileRef } from './kanban-file.js';

export const EVENT_LOG_FILE = 'SUPERVISOR_LOG.md';
const HEADING = '## Supervisor Log';
/** A huge answer is cut in the log; its start says enough about the format it has. */
const MAX_RECEIVED_CHARS = 16 * 1024;

export interface AttemptRecord {
  at: Date;
  agent: string;
  /** The task file, or the reconciliation of the kanban file for a done task. */
  task: string;
  issue: string;
  /** The output schema the agent was asked for. */
  expected: object;
  /** What came back: the structured output or the text, as is. */
  received: string;
}

/**
 * 004: `Attempt: {retry_count + 1}/{MAX_RETRIES}`: the number of this retry (progress on stderr
 * numbers it the same). `log` is the log as it is before this entry: a schema it already shows in
 * full is referred to, not repeated (see `expectedBlock`).
 */
export function formatRetryEvent(record: AttemptRecord & { retry: number; maxRetries: number }, log = ''): string {
  return entry(record, log, 'Retry Event', `**Attempt:** ${record.retry}/${record.maxRetries}`, 'Rescheduling with exact same parameters');
}

export function formatFailureEvent(record: AttemptRecord & { attempts: number; maxRetries: number }, log = ''): string {
  return entry(
    record,
    log,
    'Failure Event',
    `**Attempts:** ${record.attempts} (${record.maxRetries} retries)`,
    'Stopped the workflow; the kanban file is unchanged for this task. Run ccc kanban again to start it anew',
  );
}

/**
 * `--supervise` at its iteration limit: the checker still finds the work incomplete, and the
 * Implementor is not run again, because nothing would review what it did.
 */
export function formatReviewLimitEvent(record: { at: Date; task: string; reviews: number; maxIterations: number; checker: string; feedback: string }): string {
  return [
    `### [${record.at.toISOString()}] Review Limit Event`,
    '',
    '**Agent:** Implementor  ',
    `**Task:** ${record.task}  `,
    `**Reviews:** ${record.reviews}/${record.maxIterations}  `,
    `**Issue:** the iteration limit (${record.maxIterations}) was reached; the last review (${record.checker}) still found the work incomplete`,
    '',
    '**Last feedback:**',
    fenced(record.feedback.trim() === '' ? '(nothing)' : record.feedback, 'text'),
    '',
    '**Action:** Stopped the workflow before running the Implementor again, since nothing would review that run; the kanban file is unchanged for this task. Raise supervisor.max_iterations or finish the task yourself, then run ccc kanban again',
    '',
  ].join('\n');
}

function entry(record: AttemptRecord, log: string, title: string, attemptLine: string, action: string): string {
  return [
    `### [${record.at.toISOString()}] ${title}`,
    '',
    `**Agent:** ${record.agent}  `,
    `**Task:** ${record.task}  `,
    `${attemptLine}  `,
    `**Issue:** ${oneLine(record.issue)}`,
    '',
    expectedBlock(record, log),
    '',
    '**Received:**',
    received(record.received),
    '',
    `**Action:** ${action}`,
    '',
  ].join('\n');
}

/**
 * The schema in full the first time the log holds it; after that a pointer to the entry that
 * shows it, so that a run of retries does not repeat forty lines of schema in every entry.
 */
function expectedBlock(record: AttemptRecord, log: string): string {
  const schema = fenced(JSON.stringify(record.expected, null, 2), 'json');
  const at = log.indexOf(`**Expected:**\n${schema}\n`);
  const heading = at < 0 ? undefined : [...log.slice(0, at).matchAll(/^### (\[[^\]\n]*\] [^\n]*)$/gm)].at(-1)?.[1];
  if (heading === undefined) return `**Expected:**\n${schema}`;
  return `**Expected:** the ${record.agent} output schema, in full under "${heading}" above`;
}

/** JSON is pretty-printed in a json fence; anything else is shown as the text it is. */
function received(text: string): string {
  const json = parseJson(text);
  let shown = json === undefined ? text : JSON.stringify(json, null, 2);
  if (shown.length > MAX_RECEIVED_CHARS) shown = `${shown.slice(0, MAX_RECEIVED_CHARS)}\n… (${shown.length - MAX_RECEIVED_CHARS} more characters)`;
  return fenced(shown.trim() === '' ? '(nothing)' : shown, json === undefined ? 'text' : 'json');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A fence longer than any backtick run inside, so an answer with its own fences cannot end it. */
function fenced(text: string, lang: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

export interface EventLog {
  readonly file: FileRef;
  /** An entry, or a function that writes it knowing what the log holds so far. */
  append(entry: string | ((log: string) => string)): Promise<void>;
}

export function eventLog(kanban: FileRef): EventLog {
  const dir = path.dirname(kanban.path);
  const file: FileRef = { path: path.join(dir, EVENT_LOG_FILE), display: path.join(path.dirname(kanban.display), EVENT_LOG_FILE) };
  return {
    file,
    async append(entry) {
      const existing = await fs.readFile(file.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const hasHeading = existing.split(/\r?\n/).some((line) => line.trim() === HEADING);
      const base = existing === '' || existing.endsWith('\n\n') ? existing : existing.endsWith('\n') ? `${existing}\n` : `${existing}\n\n`;
      const text = typeof entry === 'string' ? entry : entry(existing);
      const next = hasHeading ? `${base}${text}` : `${base}${HEADING}\n\n${text}`;
      await writeThrough(file.path, next);
    },
  };
}
