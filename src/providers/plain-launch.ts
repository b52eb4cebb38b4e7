/**
 * `ccc [provider] [--] [claude args…]`: starts claude with the provider's environment and the
 * merged settings of ccc.json, without rewriting any file of the user's except `current_provider`
 * in ccc.json (so that a bare `ccc` next time uses the same provider).
 *
 * Order matters: everything that can refuse (unknown provider, env conflict, claude missing)
 * happens before the provider is recorded and before claude starts.
 */
import { loadConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/types.js';
import { requireClaude } from '../process/resolve-command.js';
import { recordCurrentProvider, globalConfigFile } from './current-provider.js';
import type { LaunchArgs } from './launch-args.js';
import { launchEnvironment } from './launch-env.js';
import { resolveLaunch, type LaunchPlan } from './resolve-launch.js';
import { withSettingsArg } from './settings-arg.js';

export interface PlainLaunchOptions {
  args: LaunchArgs;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface PreparedLaunch {
  resolved: ResolvedConfig;
  plan: LaunchPlan;
}

/** Resolves the provider and refuses when a settings file would override its environment. */
export async function prepareLaunch(options: { provider?: string; cwd: string; env: NodeJS.ProcessEnv }): Promise<PreparedLaunch> {
  const resolved = await loadConfig({ cwd: options.cwd, env: options.env });
  const configFile = globalConfigFile(resolved.configDir);
  const plan = resolveLaunch(resolved.config, options.provider, configFile);
  if (plan.provider) {
    // Only a provider's environment can conflict: launches without one skip these modules.
    const { assertNoEnvConflict } = await import('./env-conflict.js');
    const { settingsFilesWithEnv } = await import('../settings/settings-files.js');
    await assertNoEnvConflict({
      provider: plan.provider,
      providerEnv: plan.env,
      settingsFiles: settingsFilesWithEnv(options.env, options.cwd),
      configFile,
    });
  }
  return { resolved, plan };
}

export async function plainLaunch(options: PlainLaunchOptions): Promise<number> {
  const { resolved, plan } = await prepareLaunch({ provider: options.args.provider, cwd: options.cwd, env: options.env });
  const command = requireClaude(resolved.config.claude.command, options.env, options.cwd);
  if (options.args.provider !== undefined && resolved.config.current_provider !== options.args.provider) {
    await recordCurrentProvider(resolved.configDir, options.args.provider);
  }
  const args = withSettingsArg([...resolved.config.claude.args, ...options.args.claudeArgs], plan.settings, options.cwd);
  const { runClaude } = await import('./run-claude.js');
  return runClaude({ command, args, env: launchEnvironment(options.env, plan), cwd: options.cwd });
}
