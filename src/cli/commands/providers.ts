/** `ccc providers`: lists the providers of ccc.json with the current one marked. */
import type { RegisterCommand } from './register-command.js';

export const registerProvidersCommand: RegisterCommand = (program) => {
  program
    .command('providers')
    .description('List the providers of ccc.json; * marks the current one.')
    .action(async () => {
      const { loadConfig } = await import('../../config/load.js');
      const { globalConfigFile } = await import('../../providers/current-provider.js');
      const { formatProviderList } = await import('../../providers/list-providers.js');
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env });
      process.stdout.write(formatProviderList(resolved.config, globalConfigFile(resolved.configDir)));
    });
};
