/**
 * Built-in checkers keyed by the name the config uses, and the step that turns the configured
 * declarations (`'claude'`, `{ use: 'rule', … }`) into a pipeline, once, at the entry.
 */
import type { CccConfig } from '../config/types.js';
import { CccError } from '../errors.js';
import { deferredChecker } from './deferred-checker.js';
import type { PipelineEntry } from './pipeline.js';
import { loadNamedPlugins, loadPluginChecker, instantiatePlugin } from './plugin-loader.js';
import { normalizeDeclaration, ruleCommandsOf } from './rule-commands.js';
import type { Checker } from './types.js';

export { normalizeDeclaration };

export interface BuildContext {
  config: CccConfig;
  cwd: string;
  /** Where TypeScript plugins' transpiled code is kept (see user-module.ts); none: transpiled on every load. */
  moduleCacheDir?: () => string;
}

export type CheckerBuilder = (options: Record<string, unknown>, context: BuildContext) => Checker | Promise<Checker>;

export const builtInCheckers: Record<string, CheckerBuilder> = {
  claude: (options, { config }) =>
    deferredChecker('claude', async () =>
      (await import('./claude-checker.js')).claudeChecker({
        prompt_path: typeof options.prompt_path === 'string' ? options.prompt_path : undefined,
        defaultPromptPath: config.supervisor.prompt_path,
        allow: config.supervisor.reviewer.allow,
        model: config.supervisor.reviewer.model,
        ruleCommands: ruleCommandsOf(config),
      }),
    ),
  // Loaded when configured: their options are still checked while the pipeline is built, before the agent starts.
  rule: async (options) => (await import('./rule-checker.js')).ruleChecker(options),
  hook: async (options) => (await import('./hook-checker.js')).hookChecker(options),
};

/** Loads a plugin checker by path or package name; installed by the plugin loader. */
export type PluginLoader = (specifier: string, options: Record<string, unknown>, context: BuildContext) => Promise<Checker>;

/**
 * The configured checkers, in order: a built-in by name; a plugin from `plugins` by its checker
 * name; else a plugin module by path or package name. Plugins load through `loadPlugin` (the
 * real loader unless a test passes another).
 */
export async function buildPipeline(context: BuildContext, loadPlugin: PluginLoader = loadPluginChecker): Promise<PipelineEntry[]> {
  const named = await loadNamedPlugins(context, Object.keys(builtInCheckers));
  const entries: PipelineEntry[] = [];
  for (const declaration of context.config.supervisor.checkers) {
    const { use, options } = normalizeDeclaration(declaration);
    const builder = builtInCheckers[use];
    const plugin = named.get(use);
    let checker: Checker;
    if (builder) checker = await builder(options, context);
    else if (plugin) checker = await instantiatePlugin(plugin.specifier, plugin.exported, options);
    else if (looksLikePlugin(use)) checker = await loadPlugin(use, options, context);
    else {
      throw new CccError(
        'PLUGIN_INVALID',
        `Unknown checker "${use}" in supervisor.checkers. Use one of: ${[...Object.keys(builtInCheckers), ...named.keys()].join(', ')}, or a plugin path (./my-checker.ts) or package name.`,
        { data: { checker: use } },
      );
    }
    const timeout = typeof options.timeout_seconds === 'number' ? options.timeout_seconds : context.config.supervisor.timeout_seconds;
    entries.push({ checker, timeoutSeconds: timeout });
  }
  return entries;
}

function looksLikePlugin(use: string): boolean {
  // a path, or a package name with an optional subpath (ccc-supervisor/plugins/test-gate)
  return use.startsWith('.') || use.startsWith('/') || /\.(c|m)?(t|j)s$/.test(use) || /^(@[\w.-]+\/)?[\w.-]+(\/[\w.-]+)*$/.test(use);
}
