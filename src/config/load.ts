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
import { CccError } from '../errors.js';
import type { CccConfig, ResolvedConfig, UserConfig } from './types.js';
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
  const projectFile = await readProjectFile({
    cwd: options.cwd,
    configPath: options.configPath,
    moduleCacheDir: () => moduleCacheDir(configDir),
    trusted: trustedDirsOf(globalFile?.config, home),
  });
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
  refuseProjectTrust(config, sources, files);
  config.supervisor.prompt_path = expandHome(config.supervisor.prompt_path, home);
  config.trusted_dirs = config.trusted_dirs.map((dir) => expandHome(dir, home));
  return { config, sources, files, configDir, warnings: envLayer.warnings };
}

/** The global file's `trusted_dirs` before validation (which comes after the project file is read): the strings in it, `~` expanded. */
function trustedDirsOf(global: Record<string, unknown> | undefined, home: string): string[] {
  const dirs = global?.trusted_dirs;
  return Array.isArray(dirs) ? dirs.filter((dir): dir is string => typeof dir === 'string').map((dir) => expandHome(dir, home)) : [];
}

/** A project cannot widen what ccc reads out of it: `trusted_dirs` is the user's, from the global file. */
function refuseProjectTrust(config: CccConfig, sources: ResolvedConfig['sources'], files: ResolvedConfig['files']): void {
  if (sources.trusted_dirs !== 'project' || config.trusted_dirs.length === 0) return;
  throw new CccError(
    'CONFIG_INVALID',
    `Invalid configuration: trusted_dirs (from ${files.project ?? 'the project config'}): a project's config cannot widen what ccc reads out of the project. Set it in your global ccc.json instead.`,
    { data: { key: 'trusted_dirs', file: files.project } },
  );
}
