/**
 * The codex reviewer's evidence: the commands it ran (codex-events.ts), judged by the same rules
 * as the claude reviewer's (reviewer/evidence-frames.ts): only a verification command of the
 * project's policy counts; its exit code must be the test's (not masked by a pipe); a run that
 * exited 0 is read for the tests it ran (reviewer/run-evidence.ts). Codex gives the whole output
 * and the exit code of each command, so nothing is cut or moved to the background here.
 */
import type { Evidence } from '../evidence.js';
import { verificationOf, type ReviewerPolicy } from '../reviewer/reviewer-policy.js';
import { readTestRun } from '../reviewer/run-evidence.js';
import type { CodexCommand } from './codex-events.js';

export function codexEvidence(policy: ReviewerPolicy, commands: readonly CodexCommand[]): Evidence[] {
  const found: Evidence[] = [];
  for (const run of commands) {
    const { verifies, exitCodeCounts, runs } = verificationOf(policy, run.command);
    if (!verifies) continue;
    if (!exitCodeCounts || run.exitCode !== 0) {
      found.push({ command: run.command, exit_code: exitCodeCounts ? run.exitCode : null });
      continue;
    }
    const reading = readTestRun(runs, run.output);
    if (!reading.counts) found.push({ command: run.command, exit_code: 0, not_counted: reading.why });
    else found.push({ command: run.command, exit_code: 0, ...(reading.tests === undefined ? {} : { tests: reading.tests }) });
  }
  return found;
}
