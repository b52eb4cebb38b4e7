/** `ccc hook install [--project] [--dry-run]` / `ccc hook uninstall [--project] [--dry-run]`. */
import type { RegisterCommand } from './register-command.js';

interface HookOptions {
  project?: boolean;
  dryRun?: boolean;
}

async function settingsFile(options: HookOptions): Promise<string> {
  const { projectSettingsPath, userSettingsPath } = await import('../../settings/settings-files.js');
  return options.project ? projectSettingsPath(process.cwd()) : userSettingsPath(process.env);
}

export const registerHookCommand: RegisterCommand = (program) => {
  const hook = program.command('hook').description("Add or remove ccc's Stop hook in Claude Code's settings.json (merging, with a backup).");
  hook
    .command('install')
    .description('add the Stop hook `<ccc> supervisor-hook` (idempotent)')
    .option('--project', 'use ./.claude/settings.json instead of ~/.claude/settings.json')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .action(async (options: HookOptions) => {
      const { loadConfig } = await import('../../config/load.js');
      const { currentCccProcess, supervisorHookCommand } = await import('../../settings/ccc-command.js');
      const { installHookInFile } = await import('../../settings/hook-install.js');
      const { checkerTimeoutsSeconds, hookTimeoutSeconds } = await import('../../loop/hook-timeout.js');
      const { statusLinesDir } = await import('../../state/paths.js');
      const { config, configDir } = await loadConfig({ cwd: process.cwd(), env: process.env });
      const spec = {
        command: supervisorHookCommand(currentCccProcess()),
        timeout: hookTimeoutSeconds(checkerTimeoutsSeconds(config.supervisor), config.supervisor.limit_wait_minutes),
      };
      const result = await installHookInFile({ file: await settingsFile(options), spec, statusLineDir: statusLinesDir(configDir), dryRun: options.dryRun });
      process.stdout.write(result.report);
    });
  hook
    .command('uninstall')
    .description('remove only what `ccc hook install` added')
    .option('--project', 'use ./.claude/settings.json instead of ~/.claude/settings.json')
    .option('--dry-run', 'print the change as a diff and write nothing')
    .action(async (options: HookOptions) => {
      const { uninstallHookFromFile } = await import('../../settings/hook-install.js');
      const result = await uninstallHookFromFile({ file: await settingsFile(options), dryRun: options.dryRun });
      process.stdout.write(result.report);
    });
};
