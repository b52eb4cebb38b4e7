/**
 * What ccc built: the sha256 of each helper binary, recorded in `SHA256SUMS` beside it (the format
 * of `sha256sum`, so `sha256sum -c SHA256SUMS` checks it by hand) when the binary is put there, and
 * compared before ccc runs it. A helper that was truncated, overwritten or damaged on the disk since
 * would crash or do something else (a truncated relay dies of SIGSEGV with the user's terminal in
 * raw mode); one without a record (put there by hand, or by a ccc before records) is not trusted
 * either. Hashing both binaries (about 40 KB each) costs about a millisecond (most of it the
 * first sha256 of the process).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorText } from '../errors.js';

export const RECORD_FILE = 'SHA256SUMS';

export function fileHash(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The recorded hash per file name in `dir`; empty when there is no record. */
export function readRecord(dir: string): Map<string, string> {
  const record = new Map<string, string>();
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, RECORD_FILE), 'utf8');
  } catch {
    return record;
  }
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (match) record.set(match[2]!, match[1]!);
  }
  return record;
}

/**
 * Records the binaries `names` in `dir` as they are now, keeping the other entries; written to a
 * temporary name and renamed, so a reader sees the old record or the new one. Two ccc setting up
 * at once write the same hashes (the compiler's output is the same for the same source).
 */
export function recordHelpers(dir: string, names: readonly string[]): void {
  const record = readRecord(dir);
  for (const name of names) record.set(name, fileHash(path.join(dir, name)));
  const text = [...record].map(([name, hash]) => `${hash}  ${name}\n`).join('');
  const temporary = path.join(dir, `${RECORD_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, path.join(dir, RECORD_FILE));
}

/** Undefined when `file` is what was recorded for it; else why it is not to be run. */
export function recordMismatch(file: string, record: Map<string, string> = readRecord(path.dirname(file))): string | undefined {
  const recorded = record.get(path.basename(file));
  if (!recorded) return `${file} has no record of what ccc built (${path.join(path.dirname(file), RECORD_FILE)})`;
  let found: string;
  try {
    found = fileHash(file);
  } catch (error) {
    return `${file} cannot be read (${errorText(error)})`;
  }
  return found === recorded ? undefined : `${file} does not match what ccc built (sha256 ${found.slice(0, 12)}…, recorded ${recorded.slice(0, 12)}…)`;
}
