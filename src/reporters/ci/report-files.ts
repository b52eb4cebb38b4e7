/**
 * The file system edge of the reports: appending to the files GitHub hands a step, replacing a
 * report atomically, and the event log, written line by line as the run goes (a run that is
 * killed leaves the lines it had).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../state/atomic-file.js';

interface EventLogWriter {
  write(line: unknown): void;
  /** Ends the file; rejects with the first write error, if any. */
  close(): Promise<void>;
}

export interface ReportFiles {
  append(file: string, text: string): Promise<void>;
  replace(file: string, text: string): Promise<void>;
  /** Rejects when a report could not be written at `file` (its directory is made if missing). */
  checkWritable(file: string): Promise<void>;
  openEventLog(file: string): Promise<EventLogWriter>;
  exists(file: string): boolean;
}

export const reportFiles: ReportFiles = {
  append: (file, text) => fsp.appendFile(file, text, 'utf8'),
  replace: (file, text) => writeFileAtomic(file, text, { mode: 0o644 }),
  async checkWritable(file) {
    const dir = path.dirname(file);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.access(dir, fs.constants.W_OK);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat?.isDirectory()) throw new Error('it is a directory');
  },
  async openEventLog(file) {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const handle = await fsp.open(file, 'w', 0o644);
    const stream = handle.createWriteStream({ encoding: 'utf8' });
    let failure: Error | undefined;
    stream.on('error', (error) => (failure ??= error));
    return {
      write: (line) => {
        if (!failure) stream.write(`${JSON.stringify(line)}\n`);
      },
      close: () =>
        new Promise<void>((resolve, reject) => {
          stream.end(() => (failure ? reject(failure) : resolve()));
        }),
    };
  },
  exists: (file) => fs.existsSync(file),
};
