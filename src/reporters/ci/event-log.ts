/**
 * A `--json` event log (or an `--report events=` file) read back: one JSON object with a string
 * `kind` per line, blank lines skipped. Anything else is an error that names the file and line,
 * so a truncated artifact or a log mixed with other output is found, not silently miscounted.
 *
 * This is the one place a run's lines are checked: `loggedEvent` reads each line's fields into
 * the types the record folds (run-record.ts). A live run's reporters fold its typed events as they
 * come and check nothing.
 */
import { validEvidence } from '../../checkers/evidence.js';
import { reviewKindOf } from '../../checkers/verification.js';
import { addUsage, NO_USAGE, type Usage } from '../../claude/usage.js';
import { CccError, errorText } from '../../errors.js';
import type { Frame } from '../../frames/frame.js';
import type { Opinion } from '../../checkers/types.js';
import { isStopReason, type SupervisorEvent } from '../../loop/events.js';
import { readUserFile } from '../../user-file.js';

/** An event with only the fields a line holds: a log from another ccc version, or one edited by hand, may lack any but its kind. */
type Partly<E> = E extends { kind: string } ? Pick<E, 'kind'> & Partial<Omit<E, 'kind'>> : never;

/** What the record reads of one of the agent's frames. */
type LoggedFrame = Partial<Pick<Frame, 'type' | 'session_id' | 'total_cost_usd' | 'model_usage_since_last_result'>>;

/**
 * One line of a run as the record folds it: a supervisor event (every live one is one), an agent's
 * frame (`{ kind: 'frame', frame }`, as `--json` writes it), or a line of a kind this ccc does not
 * read, of which only the time counts (the run's span).
 */
export type LoggedEvent =
  | Partly<Exclude<SupervisorEvent, Verdict>>
  | (Partly<Omit<Verdict, 'opinions'>> & { opinions?: ReadonlyArray<Pick<Opinion, 'checker' | 'completed'>> })
  | { kind: 'frame'; frame?: LoggedFrame; at?: string }
  | { kind?: undefined; at?: string };

type Verdict = Extract<SupervisorEvent, { kind: 'verdict' }>;

/** The lines of the event log at `file`; one that cannot be read, or is not an event log, is a usage error that names it. */
export async function readEventLog(file: string): Promise<unknown[]> {
  // Looked at before it is opened: a FIFO among the files would hang the command.
  const read = await readUserFile(file);
  if (!read.ok) throw new CccError('USAGE', `${read.problem.message}.`);
  return parseEventLog(read.text, file);
}

export function parseEventLog(text: string, file: string): unknown[] {
  const lines: unknown[] = [];
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.replace(/\r$/, '');
    if (row.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch (error) {
      throw badLine(file, i + 1, `not JSON (${errorText(error)})`, row);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { kind?: unknown }).kind !== 'string') {
      throw badLine(file, i + 1, 'not a ccc event (a JSON object with a "kind")', row);
    }
    lines.push(value);
  }
  if (lines.length === 0) throw new CccError('USAGE', `${file}: no ccc events in it (is it the stdout of \`ccc --supervisor --json -p …\`?)`);
  return lines;
}

/**
 * One line read back, field by field: a field of the wrong type is left out, as if the line had
 * not carried it (events gain optional fields over time, and a file may be edited); nothing is
 * made up. Undefined for what is not a JSON object.
 */
export function loggedEvent(value: unknown): LoggedEvent | undefined {
  if (!isObject(value)) return undefined;
  const at = str(value.at);
  const when = at === undefined ? {} : { at };
  switch (value.kind) {
    case 'frame': {
      if (!isObject(value.frame)) return { kind: 'frame', ...when };
      const f = value.frame;
      const frame: LoggedFrame = {
        ...(str(f.type) !== undefined ? { type: str(f.type) } : {}),
        ...(str(f.session_id) !== undefined ? { session_id: str(f.session_id) } : {}),
        // Read by runCost, which takes any value claude may send.
        total_cost_usd: f.total_cost_usd,
        model_usage_since_last_result: f.model_usage_since_last_result,
      };
      return { kind: 'frame', frame, ...when };
    }
    case 'start':
      return { kind: 'start', ...defined({ task: str(value.task) }), ...when };
    case 'iteration':
      return { kind: 'iteration', ...defined({ n: num(value.n) }), ...when };
    case 'checker':
      return { kind: 'checker', ...defined({ checker: str(value.checker) }), ...when };
    case 'verdict':
      return {
        kind: 'verdict',
        ...defined({
          checker: str(value.checker),
          completed: typeof value.completed === 'boolean' ? value.completed : undefined,
          feedback: str(value.feedback),
          iteration: num(value.iteration),
          evidence: validEvidence(value.evidence),
          review: reviewKindOf(value.review),
          opinions: opinionsOf(value.opinions),
          usage: usageOf(value.usage),
          spent_usd: usd(value.spent_usd),
          cap_usd: usd(value.cap_usd),
          task_spent_usd: usd(value.task_spent_usd),
          task_cap_usd: usd(value.task_cap_usd),
        }),
        ...when,
      };
    case 'error':
      return { kind: 'error', ...defined({ message: str(value.message), usage: usageOf(value.usage) }), ...when };
    case 'stopped':
      return { kind: 'stopped', ...defined({ reason: isStopReason(value.reason) ? value.reason : undefined, message: str(value.message) }), ...when };
    case 'end':
      return { kind: 'end', ...defined({ exit_code: num(value.exit_code), review_usage: usageOf(value.review_usage) }), ...when };
    default:
      return when;
  }
}

function badLine(file: string, line: number, why: string, row: string): CccError {
  const shown = row.length > 80 ? `${row.slice(0, 80)}…` : row;
  return new CccError('USAGE', `${file}:${line}: ${why}: ${JSON.stringify(shown)}`);
}

/** Usage as a line may carry it: each count a finite number above 0, or 0. */
function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);
  return addUsage(NO_USAGE, {
    input_tokens: count(value.input_tokens),
    cache_read_input_tokens: count(value.cache_read_input_tokens),
    cache_creation_input_tokens: count(value.cache_creation_input_tokens),
    output_tokens: count(value.output_tokens),
    cost_usd: count(value.cost_usd),
    ...(count(value.unpriced_tokens) > 0 ? { unpriced_tokens: count(value.unpriced_tokens) } : {}),
  });
}

/** A verdict line's opinions: each with a name and a boolean, or none at all (a junk entry is not half-trusted). */
function opinionsOf(value: unknown): Array<Pick<Opinion, 'checker' | 'completed'>> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const said = value.map((o: unknown) => {
    const entry = isObject(o) ? o : {};
    return typeof entry.checker === 'string' && typeof entry.completed === 'boolean' ? { checker: entry.checker, completed: entry.completed } : undefined;
  });
  return said.every((o) => o !== undefined) ? said : undefined;
}

/** A dollar amount as a line may carry it: a finite number, not below 0. */
function usd(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** The fields that have a value; the others are left out, not set to undefined. */
function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
