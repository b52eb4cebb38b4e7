/**
 * The logger `ccc mcp` writes through. Stdout is the MCP protocol, so every line goes to stderr
 * (MCP clients keep a server's stderr in their own logs).
 *
 * The method shape is the one of the project's logger (`src/log/logger.ts`,
 * `createLogger({file?, level, module, fields?, stderr?})`), so switching to it is a one-line change
 * in `createMcpLogger`. The line format is design section 5:
 * `[2026-11-22T01:02:03.456Z] [INFO] [module] key=value … message`.
 */
import type { LogLevel } from '../config/types.js';

export type LogFields = Record<string, unknown>;

export interface McpLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createMcpLogger(options: { level: LogLevel; module: string; write?: (line: string) => void }): McpLogger {
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (rank[level] < rank[options.level]) return;
    const pairs = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${formatValue(value)}`);
    write(`[${new Date().toISOString()}] [${level.toUpperCase()}] [${options.module}] ${[...pairs, message].join(' ')}\n`);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}

function formatValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  // Values with spaces are quoted so a line stays parseable as key=value pairs.
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/** A logger that keeps lines in memory, for unit tests. */
export function createMemoryLogger(): McpLogger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createMcpLogger({ level: 'debug', module: 'test', write: (line) => lines.push(line) });
  return Object.assign(logger, { lines });
}
