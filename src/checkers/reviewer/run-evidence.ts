/**
 * Whether a verification command that exited 0 ran tests and passed, from what it was given and
 * what it printed: a form that runs no test (collect-only, a listing, a build without a run, a dry
 * run) never counts; the runner's summary (run-summaries.ts) must show tests that ran and passed,
 * and gives their number. A runner ccc knows must show its summary; a command whose runner ccc
 * does not know (a `make` target, an opaque script, a rule command) counts by its exit code when
 * its output holds no summary ccc reads, and is read like any runner's when it does.
 */
import { runsNoTest } from './runner-args.js';
import type { TestRun } from './reviewer-policy.js';
import { combine, readSummary, type RunSummary } from './run-summaries.js';

/** A passing run's test count (when the runner says it), or why the run does not count. */
export type RunReading = { counts: true; tests?: number } | { counts: false; why: string };

/** What claude returns instead of the whole output: a preview of a long one, a command still running after its timeout. */
const CUT = /^<persisted-output>|\n\.\.\. \[\d+ (?:characters|lines) truncated\] \.\.\.\n/;
const STILL_RUNNING = /^\[still running\]/;
const UNKNOWN_RUNNER = new Set(['make', 'opaque']);

/** `output` is what the command printed, as the reviewer's tool result holds it (or a rule command's merged output). */
export function readTestRun(runs: readonly TestRun[], output: string): RunReading {
  for (const run of runs) {
    const why = runsNoTest(run.family, run.args);
    if (why !== undefined) return { counts: false, why };
  }
  if (STILL_RUNNING.test(output)) return { counts: false, why: 'it had not finished (claude moved it to the background)' };
  const families = [...new Set(runs.map((r) => r.family))];
  const known = families.length > 0 && families.every((f) => !UNKNOWN_RUNNER.has(f));
  const summary = known ? combine(families.map((f) => readSummary(f, output)).filter((s): s is RunSummary => s !== undefined)) : readSummary('opaque', output);
  if (CUT.test(output)) {
    // Claude kept only part of a long output; the summary at its end is not there to read.
    return summary?.outcome === 'failed' ? { counts: false, why: 'its output reports failing tests' } : { counts: true };
  }
  if (summary === undefined) return known ? { counts: false, why: 'its output shows no test summary that ccc reads' } : { counts: true };
  if (summary.outcome === 'failed') return { counts: false, why: 'its output reports failing tests' };
  if (summary.outcome === 'none') return { counts: false, why: 'it ran no test' };
  return summary.tests === undefined ? { counts: true } : { counts: true, tests: summary.tests };
}
