/**
 * Parses the command line with commander and dispatches to the command table. Errors of class
 * CccError print their message and exit with their code; anything else is a bug (exit 1).
 * The supervised launch skips the parser and the table; commands load what they run on their own
 * (otherwise every start paid for every command's modules: docs/design/architecture.md, "Start-up").
 */
import { createRequire } from 'node:module';
import { isatty } from 'node:tty';
import { ExitCode, isCccError } from '../errors.js';
import { isOutOfDescriptors, tooFewDescriptorsMessage } from '../process/open-file-limit.js';
import { inertText } from '../pty/inert-text.js';
import { exitQuietlyOnEpipe, ignoreGoneTerminal } from './quiet-epipe.js';
// CommonJS, shared with the installed `ccc` (bin.cts); bundled with this module (scripts/bundle-entries.mjs).
import { isSupervisedLaunch } from './supervised-launch.cjs';

// main.ts takes the front's link through here, so that the module holding it is the one the run
// reads (run-cli.ts and what it imports may come from a bundle; see scripts/bundle-entries.mjs).
export { adoptFront } from '../process/front-link.js';

export async function runCli(argv: string[]): Promise<number> {
  if (isSupervisedLaunch(argv)) {
    const { supervisedPreflight } = await import('./supervised-preflight.js');
    ignoreGoneTerminal();
    return guarded(async () => supervisedPreflight(argv, process.stdout) ?? launchSupervisedFromCli(argv));
  }
  if (argv[0] !== 'mcp') exitQuietlyOnEpipe();
  // Required, not imported: an ESM import of CommonJS scans it for export names first, on every
  // subcommand (bench/results/2026-11-27-import-costs.md).
  const { Command, CommanderError } = createRequire(import.meta.url)('commander') as typeof import('commander');
  const { commands } = await import('./commands/index.js');
  const program = new Command('ccc')
    .description('Makes Claude Code finish its work: a supervised, transparent proxy around `claude`.')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  for (const register of commands) register(program, setExit);
  return guarded(async () => {
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
      throw error;
    }
    return exitCode;
  });
}

async function launchSupervisedFromCli(argv: string[]): Promise<number> {
  const { launchSupervised } = await import('./launch-supervised.js');
  const { providerForSupervisedLaunch } = await import('../providers/supervised-provider.js');
  const launch = await providerForSupervisedLaunch(argv, { cwd: process.cwd(), env: process.env });
  return launchSupervised(launch.argv, {
    cwd: process.cwd(),
    env: launch.env,
    stdinIsTTY: isatty(0),
    stdoutIsTTY: isatty(1),
    openStdin: () => process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    providerEnv: launch.providerEnv,
    extraClaudeArgs: launch.extraClaudeArgs,
  });
}

/**
 * Prints a CccError's message and returns its exit code; anything else is a bug (exit 1). A message
 * can quote what a user's file holds (a parse error's excerpt of a binary config), so it reaches
 * the terminal inert.
 */
async function guarded(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (isCccError(error)) {
      process.stderr.write(`ccc: ${inertText(error.message)}\n`);
      return error.exitCode;
    }
    if (isOutOfDescriptors(error)) {
      process.stderr.write(tooFewDescriptorsMessage(undefined));
      return ExitCode.usage;
    }
    process.stderr.write(`ccc: unexpected error: ${inertText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    return 1;
  }
}
