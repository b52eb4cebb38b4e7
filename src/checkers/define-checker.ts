/**
 * `defineChecker`: how a plugin module declares its checker. Three shapes, each typed as written:
 *
 * - `defineChecker({ name, module: import.meta.url, create(options) { return { check } } })`: a
 *   definition. Its name is known without calling `create`, and calling it in `ccc.config.ts`
 *   (`checkers: [testGate({ command: 'npm test' })]`) gives the declaration `{ use: <module>,
 *   ...options }`: the plugin still runs in its own thread, where `create` is called (see
 *   docs/design/reviewer.md, "Plugins, each in its own worker thread"). Without `module` the declaration
 *   names the checker (`{ use: name, ...options }`), which resolves through config `plugins`.
 * - `defineChecker({ name, check })`: a checker object, for a plugin without options.
 * - `defineChecker((options) => ({ name, check }))`: a factory; to learn its name ccc calls it
 *   once with `{}` when the module is listed in `plugins`. Kept for existing plugins.
 */
import type { CheckerDeclaration } from '../config/types.js';
import type { Checker } from './types.js';

/** Marks a definition; `Symbol.for` so that one made by another copy of this package is known too. */
const DEFINITION = Symbol.for('ccc-supervisor.checker-definition');

/** What a definition's `create` returns: a checker, whose name the definition gives. */
export type CheckerBody = Omit<Checker, 'name'> & { name?: string };

/** A declaration of `supervisor.checkers` with its options, as calling a definition makes it. */
export type PluginDeclaration = Extract<CheckerDeclaration, object>;

export interface CheckerSpec<Options, Body extends CheckerBody> {
  /** The checker's name in config, logs and events. */
  name: string;
  /** `import.meta.url` of the module whose default export this is: how a config that calls the definition finds the module again. */
  module?: string;
  /** Called in the plugin's own thread with the options written next to `use` (`timeout_seconds` excepted). */
  create(options: Options): Body | Promise<Body>;
}

/** What `defineChecker(spec)` returns: call it in `ccc.config.ts` to declare the checker with options. */
export interface CheckerDefinition<Options, Body extends CheckerBody = CheckerBody> {
  // `{} extends Options`: true when every option is optional, so the options may be left out.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  (...options: {} extends Options ? [options?: Options] : [options: Options]): PluginDeclaration;
  readonly checkerName: string;
  readonly module: string | undefined;
  create(options: Options): Body | Promise<Body>;
}

export function defineChecker<Options, Body extends CheckerBody>(spec: CheckerSpec<Options, Body>): CheckerDefinition<Options, Body>;
export function defineChecker<C extends Checker>(checker: C): C;
export function defineChecker<Options = Record<string, unknown>, C extends Checker = Checker>(factory: (options: Options) => C): (options: Options) => C;
export function defineChecker(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('create' in value)) return value;
  const spec = value as CheckerSpec<object, CheckerBody>;
  if (typeof spec.name !== 'string' || spec.name.trim() === '')
    throw new TypeError(`defineChecker: "name" must be a non-empty string (got ${JSON.stringify(spec.name)})`);
  if (typeof spec.create !== 'function') throw new TypeError(`defineChecker "${spec.name}": "create" must be a function`);
  if (spec.module !== undefined && typeof spec.module !== 'string')
    throw new TypeError(`defineChecker "${spec.name}": "module" must be a string (import.meta.url)`);
  const declare = (options: object = {}): PluginDeclaration => ({ ...options, use: spec.module ?? spec.name });
  return Object.defineProperties(declare, {
    checkerName: { value: spec.name, enumerable: true },
    module: { value: spec.module, enumerable: true },
    create: { value: (options: object) => spec.create(options), enumerable: true },
    [DEFINITION]: { value: true },
  });
}

export function isCheckerDefinition(value: unknown): value is CheckerDefinition<Record<string, unknown>> {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[DEFINITION] === true;
}
