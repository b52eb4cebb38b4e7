/**
 * A reporter of the user's own, named in the config's `reporters` as vitest names its reporters:
 * a path (relative to the project directory) or a package name, whose default export is a
 * reporter object (`{ onEvent?, onFrame?, close? }`), a class of one (`new` with the context), or
 * a factory `(context) => reporter`. Loaded with jiti like the config and the checker plugins, so
 * TypeScript needs no build step. Where it is looked for is checked before a run starts
 * (`reporterProblem`); loading and calling it happen in its own thread (user-reporter.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importUserModule, resolvePackage } from '../config/user-module.js';
import { nonFileAt } from '../user-file.js';
import { kindOf } from '../value-text.js';
import type { RunEnd } from './reporter.js';
import type { SupervisorEvent } from '../loop/events.js';
import type { Frame } from '../frames/frame.js';
import { BUILT_IN_REPORTERS } from './built-in.js';

/** What a user's reporter is given when it is made. */
export interface ReporterContext {
  /** The project directory. */
  cwd: string;
  /** How the run is driven: `headless`, `interactive`, `kanban` or `hook` (one stop per process). */
  mode: string;
}

/** What a user's reporter module provides (every method optional; a promise returned is awaited in order, `close` within a bound). */
export interface UserReporter {
  onEvent?(event: SupervisorEvent): unknown;
  onFrame?(frame: Frame): unknown;
  close?(end: RunEnd): unknown;
}

function isPath(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('file:') || path.isAbsolute(specifier) || /\.(c|m)?(t|j)s$/.test(specifier);
}

/** The module file a reporter specifier names, or why there is none. */
async function locateReporter(specifier: string, cwd: string): Promise<{ file: string } | { problem: string }> {
  if (isPath(specifier)) {
    const file = specifier.startsWith('file:') ? fileURLToPath(specifier) : path.resolve(cwd, specifier);
    if (!fs.existsSync(file)) return { problem: `does not exist (looked for ${file}; relative paths start from ${cwd})` };
    const what = nonFileAt(file);
    if (what !== undefined) return { problem: `is ${what}, not a module file (${file})` };
    return { file };
  }
  const file = await resolvePackage(specifier, cwd);
  return file ? { file } : { problem: `is neither a built-in reporter (${BUILT_IN_REPORTERS.join(', ')}) nor a package that can be found from ${cwd}` };
}

/** Why a configured reporter cannot be used, or undefined when it can be looked for (a built-in, or a module that is there). */
export async function reporterProblem(specifier: string, cwd: string): Promise<string | undefined> {
  if (BUILT_IN_REPORTERS.includes(specifier)) return undefined;
  const located = await locateReporter(specifier, cwd);
  return 'problem' in located ? `Reporter "${specifier}" ${located.problem}. Fix the path in \`reporters\`, or remove it.` : undefined;
}

/** Loads and makes the reporter (in its own thread); throws an Error that says what is wrong. */
export async function loadUserReporter(specifier: string, context: ReporterContext, cacheDir?: string): Promise<UserReporter> {
  const located = await locateReporter(specifier, context.cwd);
  if ('problem' in located) throw new Error(located.problem);
  const namespace = await importUserModule(located.file, { cacheDir });
  const exported = namespace.default;
  if (exported === undefined) throw new Error(`has no default export (write \`export default { onEvent(event) { … } }\`)`);
  const made: unknown =
    typeof exported === 'function'
      ? /^class[\s{]/.test(Function.prototype.toString.call(exported))
        ? new (exported as new (c: ReporterContext) => unknown)(context)
        : await (exported as (c: ReporterContext) => unknown)(context)
      : exported;
  if (made === null || typeof made !== 'object') throw new Error(`its default export gives ${kindOf(made)}, not a reporter object`);
  const reporter = made as Record<string, unknown>;
  const methods = ['onEvent', 'onFrame', 'close'].filter((key) => typeof reporter[key] === 'function');
  const wrong = ['onEvent', 'onFrame', 'close'].filter((key) => reporter[key] !== undefined && typeof reporter[key] !== 'function');
  if (wrong.length) throw new Error(`"${wrong.join('", "')}" must be a function when present`);
  if (!methods.length) throw new Error('is not a reporter: it has none of onEvent, onFrame, close');
  return made;
}
