/**
 * `ccc report <events.jsonl>…`: the event logs of many headless runs (`--json` output, or
 * `--report events=<file>`), such as a CI matrix's artifacts, merged into one table with totals:
 * Markdown (for `$GITHUB_STEP_SUMMARY` or a comment), or JSON with `--format json`.
 */
import { CccError } from '../../errors.js';
import type { RegisterCommand } from './register-command.js';

export const registerReportCommand: RegisterCommand = (program) => {
  program
    .command('report')
    .description('Merge the --json event logs of headless runs into one table with totals (Markdown, or --format json).')
    .argument('<events...>', 'event log files (the stdout of ccc --supervisor --json -p …)')
    .option('--format <format>', 'markdown or json', 'markdown')
    .action(async (files: string[], options: { format: string }) => {
      if (options.format !== 'markdown' && options.format !== 'json')
        throw new CccError('USAGE', `--format must be markdown or json (got "${options.format}").`);
      const { readEventLog } = await import('../../reporters/ci/event-log.js');
      const { runRecord } = await import('../../reporters/ci/run-record.js');
      const { runTable, runTableMarkdown } = await import('../../reporters/ci/run-table.js');
      const runs = [];
      for (const file of files) runs.push({ file, record: runRecord(await readEventLog(file)) });
      const table = runTable(runs);
      process.stdout.write(options.format === 'json' ? `${JSON.stringify(table, null, 2)}\n` : runTableMarkdown(table));
    });
};
