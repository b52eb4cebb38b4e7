/**
 * Structured logging (one line per record, formatted by format.ts). tslog does level filtering and the
 * pipeline, with its own output hidden; our transport formats the line and appends it
 * synchronously (to stderr too: stderr-line.ts), so a hook process that exits right after
 * logging loses nothing.
 *
 * A logger carries a module name and bound fields (`session_id`, `iteration`, …); `child`
 * names a new module and adds fields. Writing never throws: a log that cannot be written is
 * reported once on stderr and the program goes on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Logger as TsLogger } from 'tslog';
import type { CheckerLogger } from './checker-logger.js';
import type { LogLevel } from '../config/types.js';
import { isSurvivableWriteError, showWarning, warnWriteFailed } from '../state/write-failure.js';
import { formatLogLine, type LevelName } from './format.js';
import { writeStderrLine } from './stderr-line.js';
import { errorText } from '../errors.js';

export interface Logger extends CheckerLogger {
  /** A logger for another module, with `fields` added to every line. */
  child(module: string, fields?: Record<string, unknown>): Logger;
  /** False when lines of `level` are filtered out: skip building expensive fields. */
  enabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  /** Append lines to this file (its directory is created with mode 0700, the file with 0600). */
  file?: string;
  level: LogLevel;
  module: string;
  fields?: Record<string, unknown>;
  /** Also write lines to stderr. */
  stderr?: boolean;
}

const LEVEL_IDS: Record<LogLevel, number> = { debug: 2, info: 3, warn: 4, error: 5 };
const LEVEL_NAMES: Record<LogLevel, LevelName> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

/** What our calls hand to tslog, and what its transport gets back (plus tslog's `_meta`). */
interface LogRecord {
  level: LevelName;
  module: string;
  fields: Record<string, unknown>;
  message: string;
}

export function createLogger(options: LoggerOptions): Logger {
  const sink = createSink(options);
  const tslog = new TsLogger<LogRecord>({
    type: 'hidden',
    minLevel: LEVEL_IDS[options.level],
    hideLogPositionForProduction: true,
    // Pass our record through untouched: no masking or cloning of field values.
    overwrite: { mask: (args) => args, toLogObj: (args) => ({ ...(args[0] as LogRecord) }) },
  });
  tslog.attachTransport((record) => {
    const date = record._meta?.date instanceof Date ? record._meta.date : new Date();
    sink(formatLogLine({ date, level: record.level, module: record.module, fields: record.fields, message: record.message }));
  });
  return wrap(tslog, options.level, options.module, { ...options.fields });
}

function wrap(tslog: TsLogger<LogRecord>, minimum: LogLevel, module: string, bound: Record<string, unknown>): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    const record: LogRecord = { level: LEVEL_NAMES[level], module, fields: fields ? { ...bound, ...fields } : bound, message };
    tslog.log(LEVEL_IDS[level], LEVEL_NAMES[level], record);
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (childModule, fields) => wrap(tslog, minimum, childModule, { ...bound, ...fields }),
    enabled: (level) => LEVEL_IDS[level] >= LEVEL_IDS[minimum],
  };
}

function createSink(options: LoggerOptions): (line: string) => void {
  const file = options.file;
  let fileBroken = false;
  if (file !== undefined) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch {
      // Reported by the first append below, which fails the same way.
    }
  }
  return (line) => {
    if (options.stderr) writeStderrLine(line);
    if (file === undefined || fileBroken) return;
    try {
      appendWholeLine(file, line);
    } catch (error) {
      // Out of file descriptors (a low `ulimit -n`): only this line is lost, the next may find one.
      if (OUT_OF_DESCRIPTORS.has((error as NodeJS.ErrnoException).code ?? '')) return void warnOutOfDescriptors(file, error);
      fileBroken = true;
      if (isSurvivableWriteError(error)) warnWriteFailed(file, error);
      // Through showWarning: while a TUI owns the terminal the line waits for the terminal to be the user's again.
      else showWarning(`ccc: cannot write log file ${file}: ${errorText(error)}; logging to it stops.\n`);
    }
  };
}

const OUT_OF_DESCRIPTORS = new Set(['EMFILE', 'ENFILE']);
let warnedOutOfDescriptors = false;

function warnOutOfDescriptors(file: string, error: unknown): void {
  if (warnedOutOfDescriptors) return;
  warnedOutOfDescriptors = true;
  showWarning(`ccc: WARN: lines of ${file} were lost (${errorText(error)}); raise the open-file limit (ulimit -n).\n`);
}

/** Appends the line, or nothing: a write the full disk cut short is cut off again, so no torn line stays. */
function appendWholeLine(file: string, line: string): void {
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    const size = fs.fstatSync(fd).size;
    try {
      fs.writeFileSync(fd, line);
    } catch (error) {
      fs.ftruncateSync(fd, size);
      throw error;
    }
  } finally {
    fs.closeSync(fd);
  }
}
