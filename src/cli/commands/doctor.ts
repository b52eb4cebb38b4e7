/** `ccc doctor [--json]`: what this ccc has and lacks; exit 0 when a supervised session has all it needs, 1 otherwise. */
import type { RegisterCommand } from './register-command.js';

export const registerDoctorCommand: RegisterCommand = (program, setExit) => {
  program
    .command('doctor')
    .description(
      'What this ccc has and lacks (claude, relay, lifeline, MCP store, Stop hook, tests…), each with its fix; exit 1 when a supervised session lacks something.',
    )
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      const { formatDoctorText, runDoctor } = await import('../../doctor/run-doctor.js');
      const report = await runDoctor({ cwd: process.cwd(), env: process.env });
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorText(report));
      setExit(report.ok ? 0 : 1);
    });
};
