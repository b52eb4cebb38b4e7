/**
 * The lines of `ccc mcp`'s store file: one JSON record per line, appended and never rewritten.
 * A question, its outcome and a Worker restart are each one record; reading folds them back into
 * the rows the SQLite store had (a question with its outcome, a restart). A line that is not a
 * record (a write cut short by a power loss, an edit by hand) is skipped and counted, never fatal.
 */
export type StoreRecord =
  | { type: 'question'; id: string; question: string; askedAt: string; timeoutSeconds: number }
  | { type: 'outcome'; id: string; outcome: 'answered' | 'no_answer' | 'cancelled'; answer?: string; via?: string; at: string }
  | { type: 'restart'; runId: string; at: string; reason: string; trigger: string; previousPid: number | null; newPid: number | null; outcome: string };

const OUTCOMES: ReadonlySet<unknown> = new Set(['answered', 'no_answer', 'cancelled']);

/** Field by field rather than through a schema library: `self_test` reads every line of the file, and this keeps that fast. */
function isRecord(value: unknown): value is StoreRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const text = (key: string) => typeof r[key] === 'string';
  const optionalText = (key: string) => r[key] === undefined || typeof r[key] === 'string';
  const pid = (key: string) => r[key] === null || typeof r[key] === 'number';
  switch (r.type) {
    case 'question':
      return text('id') && text('question') && text('askedAt') && typeof r.timeoutSeconds === 'number';
    case 'outcome':
      return text('id') && OUTCOMES.has(r.outcome) && optionalText('answer') && optionalText('via') && text('at');
    case 'restart':
      return text('runId') && text('at') && text('reason') && text('trigger') && pid('previousPid') && pid('newPid') && text('outcome');
    default:
      return false;
  }
}

/** A question put to the human, with its outcome once it has one (`pending` until then). */
interface FeedbackRow {
  id: string;
  question: string;
  askedAt: string;
  timeoutSeconds: number;
  outcome: 'pending' | 'answered' | 'no_answer' | 'cancelled';
  answer?: string;
  via?: string;
  settledAt?: string;
}

type RestartRow = Omit<Extract<StoreRecord, { type: 'restart' }>, 'type'>;

export interface StoreContents {
  feedback: FeedbackRow[];
  restarts: RestartRow[];
  /** 1-based numbers of the non-empty lines that are not records. */
  badLines: number[];
}

/** One line, newline included: what one append writes. */
export function encodeRecord(record: StoreRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export function parseRecord(line: string): StoreRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The rows the records describe, in the order they were written. A question asked again under
 * the same id replaces the earlier one (the SQLite store's INSERT OR REPLACE); an outcome for an
 * id never asked is dropped, as the SQLite store's UPDATE matched no row.
 */
export function foldRecords(text: string): StoreContents {
  const feedback = new Map<string, FeedbackRow>();
  const restarts: RestartRow[] = [];
  const badLines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (!record) badLines.push(index + 1);
    else if (record.type === 'question') {
      const { type: _, ...row } = record;
      feedback.delete(row.id);
      feedback.set(row.id, { ...row, outcome: 'pending' });
    } else if (record.type === 'outcome') {
      const row = feedback.get(record.id);
      if (row) settle(row, record);
    } else {
      const { type: _, ...row } = record;
      restarts.push(row);
    }
  });
  return { feedback: [...feedback.values()], restarts, badLines };
}

/** As the SQLite store's UPDATE did: every settled column is set, a missing answer or channel cleared. */
function settle(row: FeedbackRow, record: Extract<StoreRecord, { type: 'outcome' }>): void {
  row.outcome = record.outcome;
  row.settledAt = record.at;
  delete row.answer;
  delete row.via;
  if (record.answer !== undefined) row.answer = record.answer;
  if (record.via !== undefined) row.via = record.via;
}
