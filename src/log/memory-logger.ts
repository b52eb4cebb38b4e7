/** Loggers for tests and for callers that must log somewhere but have nowhere to: no I/O. */
import type { LogLevel } from '../config/types.js';
import type { Logger } from './logger.js';

export function createNullLogger(): Logger {
  const ignore = () => {};
  const logger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore, child: () => logger, enabled: () => false };
  return logger;
}

export interface RecordedLine {
  level: LogLevel;
  module: string;
  message: string;
  fields: Record<string, unknown>;
}

/** Keeps every line (all levels) in `lines`, children included, for assertions in unit tests. */
export function createRecordingLogger(module = 'test'): Logger & { lines: RecordedLine[] } {
  const lines: RecordedLine[] = [];
  const make = (mod: string, bound: Record<string, unknown>): Logger => {
    const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
      lines.push({ level, module: mod, message, fields: { ...bound, ...fields } });
    };
    return {
      debug: emit('debug'),
      info: emit('info'),
      warn: emit('warn'),
      error: emit('error'),
      child: (childModule, fields) => make(childModule, { ...bound, ...fields }),
      enabled: () => true,
    };
  };
  return Object.assign(make(module, {}), { lines });
}
