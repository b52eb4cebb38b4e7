/**
 * `ccc supervisor-hook`, in the command table for `ccc help supervisor-hook` and `ccc --help`.
 * main.ts runs it on a fast path before the command table is built: Claude Code waits for it.
 */
import type { RegisterCommand } from './register-command.js';

export const registerSupervisorHookCommand: RegisterCommand = (program, setExit) => {
  program
    .command('supervisor-hook')
    .description("Claude Code's Stop hook handler: the hook's JSON on stdin, the decision on stdout (see `ccc hook install`).")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: { args: string[] }) => {
      const { runSupervisorHookCommand } = await import('../supervisor-hook.js');
      setExit(await runSupervisorHookCommand(command.args));
    });
};
