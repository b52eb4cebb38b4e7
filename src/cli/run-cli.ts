/**
 * Parses the command line with commander and dispatches to the command table. Errors of class
 * CccError print their message and exit with their code; anything else is a bug (exit 1).
 */
import { Command, CommanderError } from 'commander';
import { isCccError } from '../errors.js';
import { commands } from './commands/index.js';

export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('ccc')
    .description('Makes Claude Code finish its work: a supervised, transparent proxy around `claude`.')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  for (const register of commands) register(program, setExit);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isCccError(error)) {
      process.stderr.write(`ccc: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`ccc: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
