/**
 * The provider part of `ccc [provider] --supervisor …`: the same resolution, guard and recording
 * as a plain launch, handed to launchSupervised as its environment and leading claude args. The
 * agent and its reviewer then both talk to the provider (the reviewer inherits env and --settings).
 */
import { recordCurrentProvider } from './current-provider.js';
import { parseLaunchArgs } from './launch-args.js';
import { launchEnvironment } from './launch-env.js';
import { prepareLaunch } from './plain-launch.js';

export interface SupervisedProviderLaunch {
  /** The supervisor argv without the provider word. */
  argv: string[];
  /** The environment to run with: inherited, foreign credentials dropped, provider env on top. */
  env: NodeJS.ProcessEnv;
  providerEnv: Record<string, string>;
  /** `--settings <json>` of base and provider settings, or nothing. */
  extraClaudeArgs: string[];
}

export async function providerForSupervisedLaunch(argv: readonly string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<SupervisedProviderLaunch> {
  const { provider } = parseLaunchArgs([...argv]);
  const { resolved, plan } = await prepareLaunch({ provider, cwd: io.cwd, env: io.env });
  if (provider !== undefined && resolved.config.current_provider !== provider) await recordCurrentProvider(resolved.configDir, provider);
  return {
    argv: provider === undefined ? [...argv] : argv.slice(1),
    env: launchEnvironment(io.env, plan),
    providerEnv: plan.env,
    extraClaudeArgs: Object.keys(plan.settings).length > 0 ? ['--settings', JSON.stringify(plan.settings)] : [],
  };
}
