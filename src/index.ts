/**
 * The public API of ccc: what `ccc.config.ts` files and checker plugins import.
 * Everything else in the package is internal.
 */
export { defineConfig } from './config/types.js';
export type { CccConfig, UserConfig, CheckerDeclaration, LogLevel, ProviderConfig } from './config/types.js';
export { defineChecker } from './checkers/define-checker.js';
export type { CheckerBody, CheckerDefinition, CheckerSpec, PluginDeclaration } from './checkers/define-checker.js';
export type { Checker, CheckerFactory, CheckContext, CheckerLogger, Evidence, SessionInfo, Usage, UsageReport, Verdict } from './checkers/types.js';
export type { Frame } from './frames/frame.js';
/** For reporters named in `reporters` (docs/notifications.md): what they hear and how they are made. */
export type { Reporter, RunEnd } from './reporters/reporter.js';
export type { ReporterContext, UserReporter } from './reporters/reporter-module.js';
export type { SupervisorEvent, StopReason } from './loop/events.js';
/** For plugins: run a shell command in the project with a timeout; the whole process tree dies on abort. */
export { runShellCommand, tailLines } from './checkers/shell-command.js';
export { commandEvidence } from './checkers/command-evidence.js';
export type { ShellCommandOptions, ShellCommandResult } from './checkers/shell-command.js';
/** `isCccError` knows a CccError made by any copy of this package, where `instanceof` would not. */
export { CccError, isCccError } from './errors.js';
export type { AnyCccError, CodeData, ErrorCode } from './errors.js';
