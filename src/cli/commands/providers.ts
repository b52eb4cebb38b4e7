/** `ccc providers`: lists the providers of ccc.json with the current one marked. */
import { loadConfig } from '../../config/load.js';
import { globalConfigFile } from '../../providers/current-provider.js';
import { formatProviderList } from '../../providers/list-providers.js';
import type { RegisterCommand } from './index.js';

export const registerProvidersCommand: RegisterCommand = (program) => {
  program
    .command('providers')
    .description('List the providers of ccc.json; * marks the current one.')
    .action(async () => {
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env });
      process.stdout.write(formatProviderList(resolved.config, globalConfigFile(resolved.configDir)));
    });
};
