/** `ccc config [--json] [--config <path>]`: the effective configuration and where each value came from. */
import type { RegisterCommand } from './register-command.js';

export const registerConfigCommand: RegisterCommand = (program) => {
  program
    .command('config')
    .description('Show the effective configuration with the source of each value.')
    .option('--json', 'print the effective configuration as JSON')
    .option('--config <path>', 'use this project config file instead of searching for one')
    .action(async (options: { json?: boolean; config?: string }) => {
      const { loadConfig } = await import('../../config/load.js');
      const { formatConfigJson, formatConfigText } = await import('../../config/show.js');
      const { promptInUse } = await import('../../doctor/prompt-in-use.js');
      const { reviewerInUse } = await import('../reviewer-in-use.js');
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env, configPath: options.config });
      for (const warning of resolved.warnings) process.stderr.write(`ccc: warning: ${warning}\n`);
      const prompt = promptInUse({ cwd: process.cwd(), resolved, env: process.env });
      process.stdout.write(options.json ? formatConfigJson(resolved) : formatConfigText(resolved, prompt, reviewerInUse(resolved.config, process.cwd())));
    });
};
