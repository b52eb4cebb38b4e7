/**
 * `loadConfig`: the one way to get the effective configuration. Layers, lowest first:
 * built-in defaults < global `<config dir>/ccc.json` < project config (cosmiconfig, from `cwd`
 * upwards, or `configPath`) < environment < command-line flags. Merged, then validated once.
 */
import { moduleCacheDir } from '../state/paths.js';
import { expandHome, globalConfigFile, homeDir, resolveConfigDir } from './config-dir.js';
import { readGlobalFile, readProjectFile } from './config-files.js';
import { defaultConfig } from './defaults.js';
import { readEnvLayer } from './env-overrides.js';
import { mergeLayers, type LayerInput } from './merge.js';
import type { ResolvedConfig, UserConfig } from './types.js';
import { validateConfig } from './validate.js';

export interface LoadConfigOptions {
  /** Where the project config search starts (and what relative paths resolve against). */
  cwd: string;
  /** Read for HOME, CCC_CONFIG_DIR and the overrides of env-overrides.ts. */
  env: NodeJS.ProcessEnv;
  /** Values from command-line flags; `undefined` entries are ignored. */
  flags?: UserConfig;
  /** An explicit project config file (`--config`), instead of searching. Must exist. */
  configPath?: string;
}

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const home = homeDir(options.env);
  const configDir = resolveConfigDir(options.env, options.cwd);
  const globalFile = await readGlobalFile(globalConfigFile(configDir));
  const projectFile = await readProjectFile({ cwd: options.cwd, configPath: options.configPath, moduleCacheDir: () => moduleCacheDir(configDir) });
  const envLayer = readEnvLayer(options.env);

  const layers: LayerInput[] = [{ layer: 'default', config: defaultConfig() }];
  if (globalFile) layers.push({ layer: 'global', config: globalFile.config });
  if (projectFile) layers.push({ layer: 'project', config: projectFile.config });
  layers.push({ layer: 'env', config: envLayer.config });
  if (options.flags) layers.push({ layer: 'flag', config: options.flags });

  const { merged, sources } = mergeLayers(layers);
  const files: ResolvedConfig['files'] = {};
  if (globalFile) files.global = globalFile.file;
  if (projectFile) files.project = projectFile.file;
  const config = validateConfig({ merged, sources, files });
  config.supervisor.prompt_path = expandHome(config.supervisor.prompt_path, home);
  return { config, sources, files, configDir, warnings: envLayer.warnings };
}
