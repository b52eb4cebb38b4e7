/**
 * A verification command's evidence from its exit code and its output: a run that exited 0 counts
 * only when its output does not say it ran no test (reviewer/run-evidence.ts reads every runner's
 * summary); the count of tests is kept when the runner printed one. The `rule` checker and the
 * test-gate plugin report their commands this way, so a plugin's green run is "verified" by the
 * same rule as the reviewer's.
 */
import { readTestRun } from './reviewer/run-evidence.js';
import type { Evidence } from './types.js';

export function commandEvidence(command: string, exitCode: number | null, output: string): Evidence {
  if (exitCode !== 0) return { command, exit_code: exitCode };
  const reading = readTestRun([{ family: 'opaque', args: [] }], output);
  if (!reading.counts) return { command, exit_code: 0, not_counted: reading.why };
  return { command, exit_code: 0, scope: 'whole', ...(reading.tests === undefined ? {} : { tests: reading.tests }) };
}
