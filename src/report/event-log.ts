/**
 * A `--json` event log (or an `--report events=` file) read back: one JSON object with a string
 * `kind` per line, blank lines skipped. Anything else is an error that names the file and line,
 * so a truncated artifact or a log mixed with other output is found, not silently miscounted.
 */
import { CccError, errorText } from '../errors.js';

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

function badLine(file: string, line: number, why: string, row: string): CccError {
  const shown = row.length > 80 ? `${row.slice(0, 80)}…` : row;
  return new CccError('USAGE', `${file}:${line}: ${why}: ${JSON.stringify(shown)}`);
}
