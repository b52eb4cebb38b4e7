/**
 * The few error classes of ccc. Each carries a string `code` (stable, for tests and plugins),
 * structured `data`, an optional `cause`, and the process exit code the CLI should use.
 * Messages say what happened and what to do about it.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_UNREADABLE'
  | 'PROMPT_MISSING'
  | 'CLAUDE_NOT_FOUND'
  | 'USAGE'
  | 'CHECKER_FAILED'
  | 'CHECKER_TIMEOUT'
  | 'PLUGIN_INVALID'
  | 'SETTINGS_CORRUPT'
  | 'SETTINGS_CONFLICT'
  | 'KANBAN_INVALID'
  | 'CONFIG_DIR_UNUSABLE'
  | 'SESSION_SUPERVISED'
  | 'PROJECT_GONE'
  | 'INTERNAL';

/** Exit codes; docs/exit-codes.md says which mode exits with which. */
export const ExitCode = {
  completed: 0,
  error: 1,
  usage: 2,
  limit: 3,
  checkerFailed: 4,
  kanbanStopped: 5,
} as const;

export class CccError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;
  readonly exitCode: number;

  constructor(code: ErrorCode, message: string, options: { data?: Record<string, unknown>; cause?: unknown; exitCode?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CccError';
    this.code = code;
    this.data = options.data ?? {};
    this.exitCode = options.exitCode ?? defaultExitCode(code);
  }
}

function defaultExitCode(code: ErrorCode): number {
  switch (code) {
    case 'CONFIG_INVALID':
    case 'CONFIG_UNREADABLE':
    case 'PROMPT_MISSING':
    case 'CLAUDE_NOT_FOUND':
    case 'USAGE':
    case 'PLUGIN_INVALID':
    case 'SETTINGS_CORRUPT':
    case 'SETTINGS_CONFLICT':
    case 'KANBAN_INVALID':
    case 'CONFIG_DIR_UNUSABLE':
    case 'SESSION_SUPERVISED':
    case 'PROJECT_GONE':
      return ExitCode.usage;
    case 'CHECKER_FAILED':
    case 'CHECKER_TIMEOUT':
      return ExitCode.checkerFailed;
    default:
      return ExitCode.error;
  }
}

/** An error's message, or the thrown value as text when it is not an Error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isCccError(error: unknown): error is CccError {
  return error instanceof CccError;
}
