/**
 * The logger a checker (built-in or plugin) writes to. It lives with the log, not with the
 * checkers, so the modules below the checkers (the log itself, the session state, claude's print
 * runs) can take one without depending on the checkers' types.
 */
export interface CheckerLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
