/**
 * `ccc validate [provider] [--all] [--network]`: exit 0 when every checked provider is valid, 2
 * otherwise. With no provider configured, it checks the environment's setup instead: which
 * credentials claude will use (an API key in the environment, a login, …), exit 0 when there are any.
 */
import { CccError } from '../../errors.js';
import type { RegisterCommand } from './register-command.js';

interface ValidateOptions {
  all?: boolean;
  network?: boolean;
}

export const registerValidateCommand: RegisterCommand = (program, setExit) => {
  program
    .command('validate')
    .description('Check provider configuration: a base URL and a key or token; --network also checks that the endpoint answers.')
    .argument('[provider]', 'the provider to check (default: the current one, or all when none is current)')
    .option('--all', 'check every provider')
    .option('--network', 'also send a request to each base URL (5 s timeout)')
    .action(async (name: string | undefined, options: ValidateOptions) => {
      const { loadConfig } = await import('../../config/load.js');
      const { globalConfigFile } = await import('../../providers/current-provider.js');
      const { checkEndpoint, checkProviderConfig, formatReports } = await import('../../providers/validate-provider.js');
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env });
      const { providers } = resolved.config;
      const configFile = globalConfigFile(resolved.configDir);
      if (Object.keys(providers).length === 0 && name === undefined) {
        const { validateEnvironment } = await import('../../providers/validate-environment.js');
        setExit(await validateEnvironment({ env: process.env, cwd: process.cwd(), network: options.network === true, configFile, out: process.stdout }));
        return;
      }
      const names = pickProviders(Object.keys(providers), name, options.all ? undefined : resolved.config.current_provider, configFile);
      let reports = names.map((n) => checkProviderConfig(n, providers[n]!));
      if (options.network) reports = await Promise.all(reports.map((r) => checkEndpoint(r)));
      process.stdout.write(`${formatReports(reports)}\n`);
      const invalid = reports.filter((r) => r.problems.length > 0).length;
      process.stdout.write(invalid === 0 ? `All ${reports.length} valid.\n` : `${invalid} of ${reports.length} invalid (${configFile}).\n`);
      setExit(invalid === 0 ? 0 : 2);
    });
};

function pickProviders(known: string[], name: string | undefined, current: string | undefined, configFile: string): string[] {
  if (known.length === 0) throw new CccError('USAGE', `No providers configured in ${configFile}. Add one under "providers" (see \`ccc providers\`).`);
  if (name !== undefined) {
    if (!known.includes(name)) throw new CccError('USAGE', `Unknown provider "${name}". Known providers: ${known.join(', ')}.`);
    return [name];
  }
  if (current !== undefined && known.includes(current)) return [current];
  return known;
}
