/**
 * The project's test commands, from the files that name them (the table is ecosystems.ts): the
 * starter config's rule runs the first, the reviewer may run all of them, and `ccc config` shows
 * them with the file that made ccc detect each.
 */
import { detectTests, type DetectedTest } from './ecosystems.js';
import { projectFiles } from './project-files.js';

export type { DetectedTest };

export function detectTestCommands(cwd: string): DetectedTest[] {
  return detectTests(projectFiles(cwd));
}

/** The command a starter rule runs: the first detected; none leaves the rule commented out. */
export function detectTestCommand(cwd: string): string | undefined {
  return detectTestCommands(cwd)[0]?.command;
}
