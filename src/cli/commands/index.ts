/**
 * The command table. Each entry registers one subcommand on the commander program and reports
 * its exit code through `setExit`. Keep one line per command file.
 */
import type { Command } from 'commander';
import { registerObserve } from './observe.js';

export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;

export const commands: RegisterCommand[] = [
  registerObserve,
];
