/** `ccc init [--force]`: write a starter SUPERVISOR.md and ccc.config.ts in the current directory. */
import path from 'node:path';
import type { RegisterCommand } from './register-command.js';

export const registerInitCommand: RegisterCommand = (program) => {
  program
    .command('init')
    .description('Write a starter SUPERVISOR.md (review instructions) and ccc.config.ts (checker pipeline) here.')
    .option('--force', 'overwrite existing files')
    .action(async (options: { force?: boolean }) => {
      const { writeStarterFiles } = await import('../../starter/write-starter-files.js');
      const { resolveCommand } = await import('../../checkers/reviewer/command-runners.js');
      const { projectFiles } = await import('../../init/project-files.js');
      const cwd = process.cwd();
      const runsTests = (command: string) => resolveCommand(projectFiles(cwd), command.split(' ')).calls.some((c) => c.family !== 'make');
      const result = writeStarterFiles({ cwd, force: options.force === true, runsTests });
      const names = result.written.map((file) => path.relative(cwd, file)).join(' and ');
      const rule = result.testCommand
        ? `The rule checker runs \`${result.testCommand}\` before the Claude review; change it in ccc.config.ts if that is not your test command.`
        : 'No test command was found: add yours to the rule checker in ccc.config.ts.';
      const plain = result.importsCcc
        ? ''
        : 'ccc-supervisor is not installed in this project, so ccc.config.ts exports a plain object (no import); for its types, install ccc-supervisor into the project from its tarball (`npm install --save-dev ./ccc-supervisor-<version>.tgz`: it is not on the npm registry yet; see its docs/install.md).\n';
      process.stdout.write(`Wrote ${names}.\n${rule}\n${plain}Edit SUPERVISOR.md to say what "done" means in this project, then run \`ccc --supervisor\`.\n`);
    });
};
