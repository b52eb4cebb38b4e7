/** `ccc observe <url> [--token T]`: watch a running supervised session in this terminal. */
import type { RegisterCommand } from './register-command.js';

export const registerObserveCommand: RegisterCommand = (program, setExit) => {
  program
    .command('observe')
    .description('watch a running session in this terminal: its screen, and the supervisor events beneath')
    .argument('<url>', 'the URL ccc printed as "Observer: http://host:port/?token=…"')
    .option('--token <token>', 'the observer token, when the URL does not carry it')
    .action(async (url: string, options: { token?: string }) => {
      const { runObserveClient } = await import('../../observer/observe-client.js');
      const { processTerminal } = await import('../../observer/observe-terminal.js');
      const terminal = processTerminal();
      try {
        setExit(await runObserveClient({ url, token: options.token, terminal }));
      } finally {
        terminal.restore();
      }
    });
};
