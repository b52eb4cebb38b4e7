/**
 * The few error classes of ccc. Each carries a string `code` (stable, for tests and plugins),
 * structured `data`, an optional `cause`, and the process exit code the CLI should use.
 * Messages say what happened and what to do about it.
 */

/**
 * What the errors' data is made of lives here, beside the errors, so this module imports nothing
 * of ccc: every module may throw a CccError without a cycle through the error's data types.
 */

/** What kind of model failure it was: each is said differently, and only some are worth waiting out. */
export type ModelFailureKind = 'context-full' | 'rate-limited' | 'overloaded' | 'unreachable';

/** One thing wrong with the configuration: a value out of range, or a key ccc does not know. */
export type ConfigIssue =
  { kind: 'value'; path: string; value: unknown; allowed: string } | { kind: 'unknown-key'; path: string; parent: string; known: string[] };

/** A key of a settings file's `env` that the provider's launch would fight with. */
export interface EnvConflict {
  /** The key as set in the settings file. */
  key: string;
  file: string;
  /** `override`: the provider sets the same key; `credential`: a second credential would be sent along. */
  kind: 'override' | 'credential';
}

/** Why a user's file (SUPERVISOR.md, a task file…) could not be used. */
type UserFileProblemKind = 'missing' | 'not-a-file' | 'too-large' | 'unreadable' | 'outside';

/** What `data` holds for each code (docs/exit-codes.md, "Error codes"); `new CccError(code, …)` checks it. */
export interface CodeData {
  /** The configuration does not validate: its issues, or the file, key or variable at fault. */
  CONFIG_INVALID: {
    issues?: ConfigIssue[];
    file?: string;
    files?: string[];
    key?: string;
    variable?: string;
    path?: string;
    value?: unknown;
    allowed?: string;
  };
  /** A config or settings file cannot be read or loaded; `real`: where a project's config really is, when outside the project. */
  CONFIG_UNREADABLE: { file: string; real?: string };
  /** No usable reviewer instructions (SUPERVISOR.md): the file at fault and why, or the places looked at. */
  PROMPT_MISSING: { path?: string; problem?: UserFileProblemKind | 'empty'; real?: string; candidates?: string[] };
  /** claude (or the configured command) cannot be started. */
  CLAUDE_NOT_FOUND: { command?: string };
  /** claude runs but is older than the oldest ccc supports, or its version cannot be read. */
  CLAUDE_UNSUPPORTED: { command: string; version?: string; minimum: string };
  /** A bad command line or argument, with the option, file or value at fault. */
  USAGE: {
    option?: string;
    suggestion?: string;
    command?: string;
    provider?: string;
    known?: string[];
    file?: string;
    path?: string;
    what?: string;
    existing?: string[];
    /** A session id refused as given (not necessarily a string). */
    sessionId?: unknown;
  };
  /** A checker failed to give a verdict; a plugin may add fields of its own. */
  CHECKER_FAILED: CheckerFailureData;
  /** A checker did not answer in time. */
  CHECKER_TIMEOUT: CheckerFailureData;
  /** A checker plugin cannot be loaded or is declared wrong. */
  PLUGIN_INVALID: { plugin?: string; checker?: string; key?: string; value?: unknown };
  /** A settings file ccc must change does not parse. */
  SETTINGS_CORRUPT: { file: string };
  /** A settings file's `env` would override or leak past the provider's credentials. */
  SETTINGS_CONFLICT: { provider: string; conflicts: EnvConflict[] };
  /** The kanban file, a task file, a role prompt or the runner's lock is not usable. */
  KANBAN_INVALID: { file: string; pid?: number };
  /** The config dir (or a file in it) cannot be written. */
  CONFIG_DIR_UNUSABLE: { configDir?: string; file?: string };
  /** Another live ccc supervises the session. */
  SESSION_SUPERVISED: { sessionId: string; pid: number };
  /** The project directory went away during the run. */
  PROJECT_GONE: { cwd: string; sessionId?: string };
  /** Something ccc did not expect of itself. */
  INTERNAL: { command?: string; file?: string; pid?: unknown };
}

/** What a checker's failure carries: the process's exit and output, and, for the reviewer, the model's failure. */
type CheckerFailureData = {
  checker?: string;
  plugin?: string;
  exit_code?: number | null;
  signal?: string | null;
  stderr?: string;
  stdout?: string;
  model_failure?: ModelFailureKind;
  model_error?: string;
  /** `guard_missing`: the claude reviewer's guard did not load; `sandbox`: codex's kernel sandbox does not work here. */
  cause?: 'guard_missing' | 'sandbox';
  [field: string]: unknown;
};

/** The stable string codes of `CccError` (docs/exit-codes.md, "Error codes"). */
export type ErrorCode = keyof CodeData;

interface CccErrorOptions<C extends ErrorCode> {
  data?: CodeData[C];
  cause?: unknown;
  exitCode?: number;
}

/** The options argument: required, with its `data`, when the code's data has fields that must be there. */
type OptionsArg<C extends ErrorCode> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends CodeData[C] ? [options?: CccErrorOptions<C>] : [options: CccErrorOptions<C> & { data: CodeData[C] }];

/**
 * A `CccError` whose code is not known where it is handled: its `data` is read field by field as
 * `unknown` (narrow with `isCccError(error, code)` to have it typed).
 */
export type AnyCccError = CccError & { readonly data: Readonly<Record<string, unknown>> };

/** Exit codes; docs/exit-codes.md says which mode exits with which. */
export const ExitCode = {
  completed: 0,
  error: 1,
  usage: 2,
  limit: 3,
  checkerFailed: 4,
  kanbanStopped: 5,
} as const;

/**
 * Marks a `CccError`; `Symbol.for` so that one made by another copy of this package (a plugin's own
 * install, a second bundle) is known too, where `instanceof` would miss it. The key never changes.
 */
const BRAND = Symbol.for('ccc-supervisor.CccError');

export class CccError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly data: CodeData[C];
  readonly exitCode: number;

  constructor(code: C, message: string, ...[options = {}]: OptionsArg<C>) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CccError';
    this.code = code;
    // Only a code whose data has no required field may leave it out (OptionsArg).
    this.data = options.data ?? ({} as CodeData[C]);
    // A code this copy does not know (one rebuilt from a plugin's newer or older copy) is an error, exit 1.
    this.exitCode = options.exitCode ?? (DEFAULT_EXIT_CODE as Partial<Record<string, number>>)[code] ?? ExitCode.error;
  }
}
Object.defineProperty(CccError.prototype, BRAND, { value: true });

/** Each code's exit code unless the error says otherwise; docs/exit-codes.md has the same table. */
export const DEFAULT_EXIT_CODE: { readonly [C in ErrorCode]: number } = {
  CONFIG_INVALID: ExitCode.usage,
  CONFIG_UNREADABLE: ExitCode.usage,
  PROMPT_MISSING: ExitCode.usage,
  CLAUDE_NOT_FOUND: ExitCode.usage,
  CLAUDE_UNSUPPORTED: ExitCode.usage,
  USAGE: ExitCode.usage,
  CHECKER_FAILED: ExitCode.checkerFailed,
  CHECKER_TIMEOUT: ExitCode.checkerFailed,
  PLUGIN_INVALID: ExitCode.usage,
  SETTINGS_CORRUPT: ExitCode.usage,
  SETTINGS_CONFLICT: ExitCode.usage,
  KANBAN_INVALID: ExitCode.usage,
  CONFIG_DIR_UNUSABLE: ExitCode.usage,
  SESSION_SUPERVISED: ExitCode.usage,
  PROJECT_GONE: ExitCode.usage,
  INTERNAL: ExitCode.error,
};

/** An error's message, or the thrown value as text when it is not an Error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A `CccError` of any copy of this package; with codes, one of those codes (its `data` typed). */
export function isCccError(error: unknown): error is AnyCccError;
export function isCccError<C extends ErrorCode>(error: unknown, ...codes: C[]): error is CccError<C>;
export function isCccError(error: unknown, ...codes: ErrorCode[]): boolean {
  if (typeof error !== 'object' || error === null || (error as { [BRAND]?: unknown })[BRAND] !== true) return false;
  return codes.length === 0 || codes.includes((error as CccError).code);
}
