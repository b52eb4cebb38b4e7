/** `ccc config [--json] [--config <path>]`: the effective configuration and where each value came from. */
import { loadConfig } from '../../config/load.js';
import { formatConfigJson, formatConfigText } from '../../config/show.js';
import { promptInUse } from '../prompt-in-use.js';
import type { RegisterCommand } from './index.js';

export const registerConfigCommand: RegisterCommand = (program) => {
  program
    .command('config')
    .description('Show the effective configuration with the source of each value.')
    .option('--json', 'print the effective configuration as JSON')
    .option('--config <path>', 'use this project config file instead of searching for one')
    .action(async (options: { json?: boolean; config?: string }) => {
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env, configPath: options.config });
      for (const warning of resolved.warnings) process.stderr.write(`ccc: warning: ${warning}\n`);
      const prompt = promptInUse({ cwd: process.cwd(), promptPath: resolved.config.supervisor.prompt_path, env: process.env });
      process.stdout.write(options.json ? formatConfigJson(resolved) : formatConfigText(resolved, prompt));
    });
};
