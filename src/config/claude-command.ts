/**
 * The configured claude command (CCC_CLAUDE, else `claude.command` from the files, else the
 * default) without loading the whole configuration when nothing can change it: `ccc --version`
 * needs this one value, and zod, the schema and the file loaders cost more than the rest of it
 * (docs/design/architecture.md, "Start-up"). When a config file may exist it is read the usual way; when it cannot be read, the
 * answer is what CCC_CLAUDE or the default says (`--version` never fails over a broken config).
 */
import fs from 'node:fs';
import { mayHoldProjectConfig, projectSearchPlaces } from './config-candidates.js';
import { globalConfigFile, resolveConfigDir } from './config-dir.js';
import { defaultConfig } from './defaults.js';

export async function configuredClaudeCommand(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const fallback = options.env.CCC_CLAUDE || defaultConfig().claude.command;
  // The environment layer sits above both files (an empty variable counts as unset, as in env-overrides.ts).
  if (options.env.CCC_CLAUDE) return options.env.CCC_CLAUDE;
  const configDir = resolveConfigDir(options.env, options.cwd);
  if (!fs.existsSync(globalConfigFile(configDir)) && !mayHoldProjectConfig(options.cwd, projectSearchPlaces)) return fallback;
  try {
    const { loadConfig } = await import('./load.js');
    return (await loadConfig({ cwd: options.cwd, env: options.env })).config.claude.command;
  } catch {
    return fallback;
  }
}
