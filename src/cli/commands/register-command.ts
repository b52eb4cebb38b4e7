import type { Command } from 'commander';

/** What each command file exports: it registers its subcommand on the program and reports its exit code through `setExit`. */
export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;
