/**
 * Loads checker plugins: a module given by path (relative to the project directory) or by package
 * name (resolved from the project directory, like an `import` in the project would), whose
 * default export is a Checker or a factory `(options) => Checker`. TypeScript plugins load with no
 * build step (jiti). Every way a plugin can be wrong is a PLUGIN_INVALID error that names the
 * module and says what is wrong, once, when the pipeline is built, never in the middle of a run.
 * In a session this code runs in each plugin's own thread (plugin-worker.ts), not in ccc's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { importUserModule, resolvePackage } from '../config/user-module.js';
import { CccError, errorText, isCccError } from '../errors.js';
import { isCheckerDefinition } from './define-checker.js';
import type { BuildContext } from './build-context.js';
import type { Checker } from './types.js';
import { nonFileAt } from '../user-file.js';
import { kindOf } from '../value-text.js';

/** Options next to `use` that belong to the pipeline, not to the plugin's factory. */
const PIPELINE_OPTIONS = new Set(['timeout_seconds']);

/** A path (`./x.ts`, `/abs/x.js`, `x.ts`, or the `file:` URL a definition's `module` gives) rather than a package name. */
function isPluginPath(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('file:') || path.isAbsolute(specifier) || /\.(c|m)?(t|j)s$/.test(specifier);
}

/** A plugin path, or a package name with an optional subpath (`ccc-supervisor/plugins/test-gate`). */
export function isPluginSpecifier(specifier: string): boolean {
  return isPluginPath(specifier) || /^(@[\w.-]+\/)?[\w.-]+(\/[\w.-]+)*$/.test(specifier);
}

/** The module's default export, as loaded: a checker object or a factory, not yet validated. */
export async function importPluginModule(specifier: string, cwd: string, moduleCacheDir?: () => string): Promise<{ file: string; exported: unknown }> {
  const file = await locatePlugin(specifier, cwd);
  let namespace: Record<string, unknown>;
  try {
    namespace = await importUserModule(file, { cacheDir: moduleCacheDir?.() });
  } catch (error) {
    throw pluginInvalid(specifier, `failed to load (${file}): ${errorText(error)}`, error);
  }
  // jiti's interop answers `.default` with the namespace itself when there is none: ask with `in`.
  if (!('default' in namespace) || namespace.default === undefined) {
    const named = Object.keys(namespace).filter((k) => k !== 'default');
    const has = named.length ? ` (it exports only ${named.join(', ')})` : '';
    throw pluginInvalid(
      specifier,
      `has no default export${has}. Write \`export default defineChecker({ name, check })\` or \`export default defineChecker({ name, create: (options) => checker })\`.`,
    );
  }
  return { file, exported: namespace.default };
}

/** Loads a plugin checker by path or package name. */
export type PluginLoader = (specifier: string, options: Record<string, unknown>, context: BuildContext) => Promise<LoadedPlugin>;

/** Loads a plugin in this thread: import, call the factory with the options, validate (what a plugin's own thread does, see plugin-worker.ts; and the plugins' own tests). */
export const loadPluginChecker: PluginLoader = async (specifier, options, context: BuildContext) => {
  const { exported } = await importPluginModule(specifier, context.cwd, context.moduleCacheDir);
  return instantiatePlugin(specifier, exported, options);
};

export interface NamedPlugin {
  specifier: string;
  /** An older factory, instantiated without options to learn its name: a declaration without options may use it as it is. */
  checker?: LoadedPlugin;
}

/** What learning a plugin's name gives: the name, and the instance when learning it meant making one. */
interface ProbedPlugin {
  name: string;
  checker?: LoadedPlugin;
}

/** Learns the checker name of a module listed in `plugins`. */
export type PluginProber = (specifier: string, context: BuildContext) => Promise<ProbedPlugin>;

/** A loaded plugin; `dispose` ends what it runs in when the pipeline does not use it. */
export type LoadedPlugin = Checker & { dispose?(): Promise<void> };

/**
 * The modules listed in config `plugins`, keyed by their checker's name, so `supervisor.checkers`
 * can say `'test-gate'` instead of a path. A `defineChecker({ name, create })` plugin says its name
 * without being instantiated; an older factory is called once without options to learn it (give
 * its options defaults, or name the plugin by path in `supervisor.checkers`).
 */
export async function loadNamedPlugins(context: BuildContext, builtIns: readonly string[], probe: PluginProber): Promise<Map<string, NamedPlugin>> {
  const probed = await Promise.allSettled(context.config.plugins.map((specifier) => probe(specifier, context)));
  const disposeAll = async () => {
    for (const p of probed) if (p.status === 'fulfilled') await p.value.checker?.dispose?.();
  };
  const named = new Map<string, NamedPlugin>();
  for (const [i, specifier] of context.config.plugins.entries()) {
    const result = probed[i]!;
    if (result.status === 'rejected') {
      await disposeAll();
      throw result.reason;
    }
    const { name, checker } = result.value;
    const clash = builtIns.includes(name) ? 'the built-in checker' : named.has(name) ? `the plugin "${named.get(name)!.specifier}"` : undefined;
    if (clash) {
      await disposeAll();
      throw pluginInvalid(specifier, `is named "${name}", like ${clash}; give one of them another name.`);
    }
    named.set(name, { specifier, ...(checker ? { checker } : {}) });
  }
  return named;
}

/** Turns a default export into a validated Checker: calls a factory with `options`, checks the shape. */
export async function instantiatePlugin(specifier: string, exported: unknown, options: Record<string, unknown>): Promise<Checker> {
  const own = Object.fromEntries(Object.entries(options).filter(([key]) => !PIPELINE_OPTIONS.has(key)));
  if (isCheckerDefinition(exported)) {
    let made: unknown;
    try {
      made = await exported.create(own);
    } catch (error) {
      if (isCccError(error, 'PLUGIN_INVALID')) throw error;
      throw pluginInvalid(specifier, `factory threw: ${errorText(error)}`, error);
    }
    return namedBody(specifier, exported.checkerName, made);
  }
  if (typeof exported !== 'function') {
    const extra = Object.keys(own);
    if (extra.length > 0) {
      throw pluginInvalid(
        specifier,
        `exports a checker object, which takes no options, but the config gives ${extra.join(', ')}. Export a factory \`(options) => checker\` to accept options.`,
      );
    }
    return validateChecker(specifier, exported);
  }
  let made: unknown;
  try {
    made = await (exported as (options: Record<string, unknown>) => unknown)(own);
  } catch (error) {
    if (isCccError(error, 'PLUGIN_INVALID')) throw error;
    throw pluginInvalid(specifier, `factory threw: ${errorText(error)}`, error);
  }
  return validateChecker(specifier, made, 'the checker its factory returned');
}

function validateChecker(specifier: string, value: unknown, what = 'its default export'): Checker {
  if (value === null || typeof value !== 'object') {
    throw pluginInvalid(specifier, `${what} is ${kindOf(value)}; expected a checker { name: string, check(ctx, signal) } or a factory returning one.`);
  }
  const candidate = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof candidate.name !== 'string' || candidate.name.trim() === '') problems.push(`"name" must be a non-empty string (got ${kindOf(candidate.name)})`);
  if (typeof candidate.check !== 'function') problems.push(`"check" must be a function (got ${kindOf(candidate.check)})`);
  for (const hook of ['onSessionStart', 'onFrame', 'onSessionEnd']) {
    if (candidate[hook] !== undefined && typeof candidate[hook] !== 'function')
      problems.push(`"${hook}" must be a function when present (got ${kindOf(candidate[hook])})`);
  }
  if (problems.length > 0) throw pluginInvalid(specifier, `${what} is not a checker: ${problems.join('; ')}.`);
  return value as Checker;
}

/** What a definition's `create` returned, as a checker with the definition's name; its methods keep their `this`. */
function namedBody(specifier: string, name: string, made: unknown): Checker {
  const what = 'the checker its create returned';
  if (made === null || typeof made !== 'object') return validateChecker(specifier, made, what);
  const body = made as Record<string, unknown>;
  if (body.name !== undefined && body.name !== name) {
    throw pluginInvalid(specifier, `is defined as "${name}", but ${what} is named ${kindOf(body.name)}; leave the name out of what create returns.`);
  }
  const view: Record<string, unknown> = { name };
  for (const key of ['check', 'onSessionStart', 'onFrame', 'onSessionEnd']) {
    const member = body[key];
    if (member !== undefined) view[key] = typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(made) : member;
  }
  return validateChecker(specifier, view, what);
}

/**
 * `ccc-supervisor/…` (the bundled plugins) resolves in the running ccc's own package, through its
 * `exports`, whether ccc is installed in the project or globally. Its package.json is two levels
 * up from both `src/checkers/` and `dist/checkers/`.
 */
function resolveOwnPackage(specifier: string): string | undefined {
  if (specifier !== 'ccc-supervisor' && !specifier.startsWith('ccc-supervisor/')) return undefined;
  try {
    return createRequire(new URL('../../package.json', import.meta.url)).resolve(specifier);
  } catch {
    return undefined;
  }
}

async function locatePlugin(specifier: string, cwd: string): Promise<string> {
  if (isPluginPath(specifier)) {
    const file = specifier.startsWith('file:') ? fileURLToPath(specifier) : path.resolve(cwd, specifier);
    if (!fs.existsSync(file)) throw pluginInvalid(specifier, `does not exist (looked for ${file}). Check the path; relative paths start from ${cwd}.`);
    // Importing a FIFO blocks until a writer comes, a device never ends: name it before any import.
    const what = nonFileAt(file);
    if (what !== undefined) throw pluginInvalid(specifier, `is ${what}, not a module file (${file}). Give the path of the plugin's .js or .ts file.`);
    return file;
  }
  const file = resolveOwnPackage(specifier) ?? (await resolvePackage(specifier, cwd));
  if (file === undefined) {
    throw pluginInvalid(
      specifier,
      `is neither a built-in checker nor a package that can be found from ${cwd}. Install it (npm install ${specifier}) or give the plugin's path (./${specifier}.ts).`,
    );
  }
  return file;
}

/** The error for a checker plugin that cannot be used, loaded here or in its thread (isolated-plugin.ts). */
export function pluginInvalid(specifier: string, problem: string, cause?: unknown): CccError<'PLUGIN_INVALID'> {
  return new CccError('PLUGIN_INVALID', `Checker plugin "${specifier}" ${problem}`, { data: { plugin: specifier }, cause });
}
