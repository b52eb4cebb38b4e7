/**
 * A verification command's evidence from its exit code and its output, judged by the same rule
 * as the reviewer's runs (reviewer/run-evidence.ts): what the command runs in the project (an npm
 * script, a make target, down to its test runners), the runners' summaries, the whole suite or a
 * part of it. The `rule` checker and the test-gate plugin report their commands this way, so a
 * plugin's green run is "verified" by the same rule as the reviewer's. The command is the user's
 * own, so its arguments are its definition of the suite, not a selection.
 */
import { detectTestCommands } from '../init/test-command.js';
import { projectFiles } from '../init/project-files.js';
import { reviewerPolicy } from './reviewer/reviewer-policy.js';
import { runEvidence } from './reviewer/run-evidence.js';
import type { Evidence } from './types.js';

/** `cwd`: the project the command ran in (its scripts and Makefile are read there); the process's own by default. */
export function commandEvidence(command: string, exitCode: number | null, output: string, cwd: string = process.cwd()): Evidence {
  const policy = reviewerPolicy({ root: cwd, tests: detectTestCommands(cwd), ruleCommands: [command], allow: [] });
  return runEvidence({ policy, files: projectFiles(cwd) }, { command, exitCode, output }) ?? { command, exit_code: exitCode };
}
