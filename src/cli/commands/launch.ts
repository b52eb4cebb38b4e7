/**
 * The default action: `ccc [provider] [--] [claude args…]` when the first word is not one of
 * ccc's commands. Registered on the program itself, so no command name is taken from providers.
 * The words are read raw (commander drops a leading `--`, which decides what is a provider).
 */
import type { Command } from 'commander';
import { supervisorHelp } from '../supervisor-help.js';
import type { RegisterCommand } from './register-command.js';

export const registerLaunchCommand: RegisterCommand = (program, setExit) => {
  program
    .helpCommand(false) // `ccc help [command]` is commands/help.ts
    .argument('[provider]', 'a provider from ccc.json (default: the current one)')
    .argument('[claude-args...]', 'passed to claude unchanged; put them after -- when the first one is a word')
    .option('-v, --version', "print ccc's version and claude's")
    .addHelpText('after', `\n${supervisorHelp()}`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_provider: unknown, _claudeArgs: unknown, options: { version?: boolean }) => {
      if (options.version) {
        const { versionText } = await import('../version.js');
        process.stdout.write(await versionText({ cwd: process.cwd(), env: process.env }));
        return;
      }
      const { parseLaunchArgs } = await import('../../providers/launch-args.js');
      const { plainLaunch } = await import('../../providers/plain-launch.js');
      const { rejectLaunchOptionTypos, withCommandSuggestion } = await import('../launch-preflight.js');
      const words = rawWords(program);
      rejectLaunchOptionTypos(words);
      const args = parseLaunchArgs(words);
      const commands = program.commands.map((c) => c.name());
      setExit(await withCommandSuggestion(args.provider, commands, () => plainLaunch({ args, cwd: process.cwd(), env: process.env })));
    });
};

function rawWords(program: Command): string[] {
  const raw = (program as unknown as { rawArgs?: unknown }).rawArgs;
  return Array.isArray(raw) ? raw.map(String) : program.args;
}
