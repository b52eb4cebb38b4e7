/** `ccc hook install [--project] [--dry-run]` / `ccc hook uninstall [--project] [--dry-run]`. */
import { loadConfig } from '../../config/load.js';
import { currentCccProcess, supervisorHookCommand } from '../../settings/ccc-command.js';
import { installHookInFile, uninstallHookFromFile } from '../../settings/hook-install.js';
import { projectSettingsPath, userSettingsPath } from '../../settings/settings-files.js';
import { stopHookTimeout } from '../../settings/stop-hook.js';
import type { RegisterCommand } from './index.js';

interface HookOptions {
  project?: boolean;
  dryRun?: boolean;
}

const settingsFile = (options: HookOptions) => (options.project ? projectSettingsPath(process.cwd()) : userSettingsPath(process.env));

export const registerHookCommand: RegisterCommand = (program) => {
  const hook = program.command('hook').description("Add or remove ccc's Stop hook in Claude Code's settings.json (merging, with a backup).");
  hook
    .command('install')
    .description('add the Stop hook `<ccc> supervisor-hook` (idempotent)')
    .option('--project', 'use ./.claude/settings.json instead of ~/.claude/settings.json')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .action(async (options: HookOptions) => {
      const { config } = await loadConfig({ cwd: process.cwd(), env: process.env });
      const spec = { command: supervisorHookCommand(currentCccProcess()), timeout: stopHookTimeout(config.supervisor.timeout_seconds) };
      const result = await installHookInFile({ file: settingsFile(options), spec, dryRun: options.dryRun });
      process.stdout.write(result.report);
    });
  hook
    .command('uninstall')
    .description('remove only what `ccc hook install` added')
    .option('--project', 'use ./.claude/settings.json instead of ~/.claude/settings.json')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .action(async (options: HookOptions) => {
      const result = await uninstallHookFromFile({ file: settingsFile(options), dryRun: options.dryRun });
      process.stdout.write(result.report);
    });
};
