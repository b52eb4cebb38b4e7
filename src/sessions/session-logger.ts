/**
 * The session's structured log (`supervisor-<session_id>.log`). The session id may only be known
 * after the agent started (`--continue`), so lines logged before that are held (bounded) and
 * written, in order, once the id is bound.
 */
import type { CheckerLogger } from '../checkers/types.js';
import type { LogLevel } from '../config/types.js';
import { createLogger, type Logger } from '../log/logger.js';
import { sessionLogPath } from '../state/paths.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const HOLD_LIMIT = 1000;

export class SessionLogger implements CheckerLogger {
  private target?: Logger;
  private held: Array<[Level, string, Record<string, unknown> | undefined]> = [];

  constructor(
    private readonly configDir: string,
    private readonly level: LogLevel,
    private readonly alsoStderr: boolean,
  ) {}

  bind(sessionId: string): void {
    this.target = createLogger({
      file: sessionLogPath(this.configDir, sessionId),
      level: this.level,
      module: 'supervisor',
      fields: { session_id: sessionId },
      stderr: this.alsoStderr,
    });
    for (const [level, message, fields] of this.held.splice(0)) this.target[level](message, fields);
  }

  debug(message: string, fields?: Record<string, unknown>) {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>) {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.log('error', message, fields);
  }

  private log(level: Level, message: string, fields?: Record<string, unknown>) {
    if (this.target) return this.target[level](message, fields);
    if (this.held.length < HOLD_LIMIT) this.held.push([level, message, fields]);
  }
}
