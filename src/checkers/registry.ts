/**
 * Built-in checkers keyed by the name the config uses, and the step that turns the configured
 * declarations (`'claude'`, `{ use: 'rule', … }`) into a pipeline, once, at the entry.
 */
import type { CccConfig, CheckerDeclaration } from '../config/types.js';
import { CccError } from '../errors.js';
import { claudeChecker } from './claude-checker.js';
import type { PipelineEntry } from './pipeline.js';
import type { Checker } from './types.js';

export interface BuildContext {
  config: CccConfig;
  cwd: string;
}

export type CheckerBuilder = (options: Record<string, unknown>, context: BuildContext) => Checker | Promise<Checker>;

export const builtInCheckers: Record<string, CheckerBuilder> = {
  claude: (options, { config }) =>
    claudeChecker({
      prompt_path: typeof options.prompt_path === 'string' ? options.prompt_path : undefined,
      defaultPromptPath: config.supervisor.prompt_path,
    }),
};

/** Loads a plugin checker by path or package name; installed by the plugin loader. */
export type PluginLoader = (specifier: string, options: Record<string, unknown>, context: BuildContext) => Promise<Checker>;

export function normalizeDeclaration(declaration: CheckerDeclaration): { use: string; options: Record<string, unknown> } {
  if (typeof declaration === 'string') return { use: declaration, options: {} };
  const { use, ...options } = declaration;
  return { use, options };
}

export async function buildPipeline(context: BuildContext, loadPlugin?: PluginLoader): Promise<PipelineEntry[]> {
  const entries: PipelineEntry[] = [];
  for (const declaration of context.config.supervisor.checkers) {
    const { use, options } = normalizeDeclaration(declaration);
    const builder = builtInCheckers[use];
    let checker: Checker;
    if (builder) checker = await builder(options, context);
    else if (loadPlugin && looksLikePlugin(use)) checker = await loadPlugin(use, options, context);
    else {
      throw new CccError(
        'PLUGIN_INVALID',
        `Unknown checker "${use}" in supervisor.checkers. Use one of: ${Object.keys(builtInCheckers).join(', ')}, or a plugin path (./my-checker.ts) or package name.`,
        { data: { checker: use } },
      );
    }
    const timeout = typeof options.timeout_seconds === 'number' ? options.timeout_seconds : context.config.supervisor.timeout_seconds;
    entries.push({ checker, timeoutSeconds: timeout });
  }
  return entries;
}

function looksLikePlugin(use: string): boolean {
  return use.startsWith('.') || use.startsWith('/') || /\.(c|m)?(t|j)s$/.test(use) || /^(@[\w.-]+\/)?[\w.-]+$/.test(use);
}
