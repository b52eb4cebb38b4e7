/**
 * `ccc help [command]`: the help of any command, `supervisor` for the supervised modes, and a
 * "did you mean" error (exit 2) for a name that is none of them. Registered as a command of its
 * own because commander's built-in one does not know `supervisor-hook` or the supervised modes.
 */
import { CccError } from '../../errors.js';
import { supervisorHelp } from '../supervisor-help.js';
import type { RegisterCommand } from './register-command.js';

const SUPERVISOR = ['supervisor', '--supervisor'];

export const registerHelpCommand: RegisterCommand = (program) => {
  program
    .command('help')
    .description('Show the help of a command, or of the supervised modes (ccc help supervisor).')
    .argument('[command]', 'a command name, or supervisor')
    .action(async (name: string | undefined) => {
      if (name === undefined || name === 'help') {
        program.outputHelp();
        return;
      }
      if (SUPERVISOR.includes(name)) {
        process.stdout.write(supervisorHelp());
        return;
      }
      const command = program.commands.find((c) => c.name() === name);
      if (command) {
        command.outputHelp();
        return;
      }
      const { nearMiss } = await import('../../config/near-miss.js');
      const names = [...program.commands.map((c) => c.name()), 'supervisor'];
      const meant = nearMiss(name, names);
      throw new CccError('USAGE', `No command "${name}".${meant ? ` Did you mean \`ccc help ${meant}\`?` : ''} Commands: ${names.join(', ')}.`);
    });
};
