/**
 * `ccc kanban <kanban file> [options] [-- claude args…]`: run the kanban workflow
 * (docs/design/kanban.md). Ctrl-C (or SIGTERM) stops the running agent and leaves the kanban file as it was before it.
 */
import type { Command } from 'commander';
import type { LogLevel } from '../../config/types.js';
import { CccError } from '../../errors.js';
import type { RegisterCommand } from './register-command.js';

interface KanbanOptions {
  supervise?: boolean;
  maxRetries?: string;
  rolesDir?: string;
  config?: string;
  logLevel?: string;
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

export const registerKanbanCommand: RegisterCommand = (program, setExit) => {
  program
    .command('kanban')
    .description('Run the kanban workflow of <kanban-file> (JSON or YAML): role agents do the tasks, the Manager picks the next one.')
    .argument('<kanban-file>', 'the kanban file: phase, current and tasks')
    .argument('[claude-args...]', 'after --: arguments for every claude agent (e.g. -- --allowedTools Bash)')
    .option('--supervise', 'review every Implementor answer with the checker pipeline before the Manager sees it')
    .option('--max-retries <n>', 'retries of an answer in the wrong format (kanban.max_retries, default 3)')
    .option('--roles-dir <dir>', 'directory of Architect.md, Manager.md, Implementor.md (kanban.roles_dir, default ./roles)')
    .option('--config <path>', 'use this project config file instead of searching for one')
    .option('--log-level <level>', 'level of the log file (debug, info, warn, error)')
    .action(async (file: string, claudeArgs: string[], options: KanbanOptions, command: Command) => {
      // commander keeps the argv it parsed (untyped); only it tells whether `--` was given.
      const raw = (command.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs ?? [];
      if (claudeArgs.length > 0 && !raw.includes('--')) {
        throw new CccError(
          'USAGE',
          `Unexpected argument "${claudeArgs[0]}". Arguments for claude go after --, e.g. ccc kanban ${file} -- --allowedTools Bash.`,
        );
      }
      if (options.logLevel !== undefined && !LOG_LEVELS.includes(options.logLevel as LogLevel)) {
        throw new CccError('USAGE', `--log-level must be one of ${LOG_LEVELS.join(', ')} (got "${options.logLevel}").`);
      }
      const { runKanban } = await import('../../kanban/run-kanban.js');
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      try {
        const code = await runKanban(
          {
            file,
            supervise: options.supervise ?? false,
            maxRetries: options.maxRetries === undefined ? undefined : retries(options.maxRetries),
            rolesDir: options.rolesDir,
            configPath: options.config,
            logLevel: options.logLevel as LogLevel | undefined,
            claudeArgs,
          },
          { cwd: process.cwd(), env: process.env, write: (text) => process.stderr.write(text), signal: controller.signal },
        );
        setExit(code);
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
};

function retries(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
    throw new CccError('USAGE', `--max-retries must be a whole number of 0 or more (got "${value}").`);
  return n;
}
