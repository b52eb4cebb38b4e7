/**
 * Built-in checkers keyed by the name the config uses, and the step that turns the configured
 * declarations (`'claude'`, `{ use: 'rule', … }`) into a pipeline, once, at the entry.
 */
import { CccError } from '../errors.js';
import { nearMiss } from '../config/near-miss.js';
import { checkerTimeoutSeconds } from './checker-timeout.js';
import { deferredChecker } from './deferred-checker.js';
import type { PipelineEntry } from './pipeline.js';
import type { BuildContext } from './build-context.js';
import { isPluginSpecifier, loadNamedPlugins, type LoadedPlugin, type PluginLoader, type PluginProber } from './plugin-loader.js';
import { normalizeDeclaration, ruleCommandsOf } from './rule-commands.js';
import { promptPathFor } from './supervisor-prompt.js';
import type { Checker } from './types.js';

type CheckerBuilder = (options: Record<string, unknown>, context: BuildContext) => Checker | Promise<Checker>;

const builtInCheckers: Record<string, CheckerBuilder> = {
  claude: (options, { config, sources }) =>
    deferredChecker('claude', async () =>
      (await import('./claude-checker.js')).claudeChecker({
        promptPath: promptPathFor(options, config, sources),
        trusted: config.trusted_dirs,
        allow: config.supervisor.reviewer.allow,
        model: config.supervisor.reviewer.model,
        requireEvidence: config.supervisor.reviewer.require_evidence,
        ruleCommands: ruleCommandsOf(config),
      }),
    ),
  codex: (options, { config, sources }) =>
    deferredChecker('codex', async () =>
      (await import('./codex/codex-checker.js')).codexChecker({
        promptPath: promptPathFor(options, config, sources),
        trusted: config.trusted_dirs,
        codex: config.supervisor.codex,
        allow: config.supervisor.reviewer.allow,
        requireEvidence: config.supervisor.reviewer.require_evidence,
        ruleCommands: ruleCommandsOf(config),
      }),
    ),
  // Loaded when configured: their options are still checked while the pipeline is built, before the agent starts.
  rule: async (options) => (await import('./rule-checker.js')).ruleChecker(options),
  hook: async (options) => (await import('./hook-checker.js')).hookChecker(options),
};

/** The built-in reviewers: they decide together by `supervisor.agreement` (agreement.ts). */
const REVIEWERS: ReadonlySet<string> = new Set(['claude', 'codex']);

/** How plugins load: each declaration's instance, and the names of the modules listed in `plugins`. */
export interface PluginLoading {
  load: PluginLoader;
  probe: PluginProber;
}

/** Plugins run in a worker thread each (isolated-plugin.ts), loaded there: their code never runs in ccc's thread. */
const loadIsolatedPlugin: PluginLoader = async (specifier, options, context) => {
  const { startIsolatedPlugin } = await import('./isolated-plugin.js');
  return startIsolatedPlugin({
    specifier,
    options,
    cwd: context.cwd,
    moduleCacheDir: context.moduleCacheDir,
    timeoutSeconds: timeoutOf(options, context),
    maxMemoryMb: context.config.supervisor.plugin_max_memory_mb,
  });
};

const probeIsolatedPlugin: PluginProber = async (specifier, context) => {
  const { probeIsolatedPlugin: probe } = await import('./isolated-plugin.js');
  return probe({
    specifier,
    cwd: context.cwd,
    moduleCacheDir: context.moduleCacheDir,
    timeoutSeconds: context.config.supervisor.timeout_seconds,
    maxMemoryMb: context.config.supervisor.plugin_max_memory_mb,
  });
};

const isolatedPlugins: PluginLoading = { load: loadIsolatedPlugin, probe: probeIsolatedPlugin };

/**
 * The configured checkers, in order: a built-in by name; a plugin from `plugins` by its checker
 * name; else a plugin module by path or package name (a `defineChecker` definition called in
 * `ccc.config.ts` gives one of these). Plugins load through `plugins` (each in its own thread
 * unless a test passes another way), all at once; the first declaration that fails is the error.
 */
export async function buildPipeline(context: BuildContext, plugins: PluginLoading = isolatedPlugins): Promise<PipelineEntry[]> {
  const loadPlugin = plugins.load;
  const named = await loadNamedPlugins(context, Object.keys(builtInCheckers), plugins.probe);
  const taken = new Set<string>(); // plugins whose instance without options a declaration took
  const declarations = context.config.supervisor.checkers.map(normalizeDeclaration);
  const checkers = await Promise.allSettled(
    declarations.map(async ({ use, options }): Promise<LoadedPlugin> => {
      const builder = builtInCheckers[use];
      const plugin = named.get(use);
      if (builder) return builder(options, context);
      if (plugin) {
        // An older factory made without options to learn its name: used as it is by the first declaration that adds none.
        const take = plugin.checker !== undefined && Object.keys(options).length === 0 && !taken.has(use);
        if (take) taken.add(use);
        return take ? plugin.checker! : loadPlugin(plugin.specifier, options, context);
      }
      const known = [...Object.keys(builtInCheckers), ...named.keys()];
      if (isPluginSpecifier(use) && !(await isTypo(use, known, context.cwd))) return loadPlugin(use, options, context);
      throw unknownChecker(use, known, context.checkersFrom);
    }),
  );
  for (const [name, plugin] of named) if (!taken.has(name)) await plugin.checker?.dispose?.();
  const failed = checkers.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  if (failed) {
    for (const c of checkers) if (c.status === 'fulfilled') await c.value.dispose?.();
    throw failed.reason;
  }
  return checkers.map((c, i) => ({
    checker: (c as PromiseFulfilledResult<LoadedPlugin>).value,
    timeoutSeconds: timeoutOf(declarations[i]!.options, context),
    ...(REVIEWERS.has(declarations[i]!.use) ? { reviewer: true } : {}),
  }));
}

/**
 * A bare name one or two edits from a checker ccc knows (`claud`), which no installed package
 * answers to: a typo, not a plugin. A package of that name, when installed, is loaded as asked.
 */
async function isTypo(use: string, known: readonly string[], cwd: string): Promise<boolean> {
  if (!/^[\w.-]+$/.test(use) || /\.(c|m)?(t|j)s$/.test(use) || nearMiss(use, known) === undefined) return false;
  const { resolvePackage } = await import('../config/user-module.js');
  return (await resolvePackage(use, cwd)) === undefined;
}

function unknownChecker(use: string, known: readonly string[], from: string | undefined): CccError {
  const meant = nearMiss(use, known);
  return new CccError(
    'PLUGIN_INVALID',
    `Unknown checker "${use}" in supervisor.checkers${from ? ` (from ${from})` : ''}.${meant ? ` Did you mean "${meant}"?` : ''} ` +
      `Use one of: ${known.join(', ')}, or a plugin path (./my-checker.ts) or package name.`,
    { data: { checker: use, ...(meant ? { suggestion: meant } : {}) } },
  );
}

function timeoutOf(options: Record<string, unknown>, context: BuildContext): number {
  return checkerTimeoutSeconds(options, context.config.supervisor.timeout_seconds);
}
