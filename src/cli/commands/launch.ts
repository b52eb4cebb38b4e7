/**
 * The default action: `ccc [provider] [--] [claude args…]` when the first word is not one of
 * ccc's commands. Registered on the program itself, so no command name is taken from providers.
 * The words are read raw (commander drops a leading `--`, which decides what is a provider).
 */
import type { Command } from 'commander';
import type { RegisterCommand } from './index.js';

export const registerLaunchCommand: RegisterCommand = (program, setExit) => {
  program
    .helpCommand(true) // commander drops `ccc help [command]` once the program has an action; keep it
    .argument('[provider]', 'a provider from ccc.json (default: the current one)')
    .argument('[claude-args...]', 'passed to claude unchanged; put them after -- when the first one is a word')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { parseLaunchArgs } = await import('../../providers/launch-args.js');
      const { plainLaunch } = await import('../../providers/plain-launch.js');
      setExit(await plainLaunch({ args: parseLaunchArgs(rawWords(program)), cwd: process.cwd(), env: process.env }));
    });
};

function rawWords(program: Command): string[] {
  const raw = (program as unknown as { rawArgs?: unknown }).rawArgs;
  return Array.isArray(raw) ? raw.map(String) : program.args;
}
