/**
 * One verification command's evidence, from the command, its exit code and its output, given the
 * project: a pure reading that any reviewer (claude's stream, another agent's, a rule checker's
 * shell) shares. What the command runs is resolved first (command-runners.ts: an npm script, a
 * make target, a workspace form, down to the test runners it ends in), then:
 *
 * - a command that runs no runner ccc knows is no test evidence, whatever it printed (`echo 5
 *   passed`, a `run-tests.js` printing `Tests: 5 passed, 5 total`, `tsc --noEmit`);
 * - a form that runs no test (collect-only, a listing, a build without a run, a dry run), a run in
 *   the background or still running, is no test evidence;
 * - only the summaries of the runners it runs are read (run-summaries.ts), and they must show
 *   tests that passed: skipped, xfailed and deselected ones are not passed, and a run where none
 *   passed is no evidence;
 * - a passing run is `whole` when it ran the project's test command (or a runner directly, or
 *   every workspace) without a selection the command line gave (a path, a filter, `--deselect`,
 *   one workspace) and its runner deselected nothing; else `focused`, with what selected;
 * - a failing run keeps the failing tests its runner named (failing-tests.ts), or says it ran none
 *   (pytest's exit 5).
 */
import type { Evidence } from '../evidence.js';
import type { ProjectFiles } from '../../init/project-files.js';
import { resolveCommand, type Resolution } from './command-runners.js';
import type { RunnerCall } from './runner-call.js';
import { shellSegments } from './shell-segments.js';
import { verificationOf, type ReviewerPolicy } from './reviewer-policy.js';
import { failingTests } from './failing-tests.js';
import { focusOf, runsNoTest } from './runner-args.js';
import type { Family } from './runner-rules.js';
import { readSummary } from './run-summaries.js';
import type { RunSummary } from './summary-counts.js';
import { clip } from '../../value-text.js';

/** The project a command ran in: what may run there (the policy) and its files, read to resolve scripts and targets. */
export interface EvidenceProject {
  policy: ReviewerPolicy;
  files: ProjectFiles;
}

/** What one command did, as its runner (claude's Bash tool, a shell) reported it. */
export interface CommandRun {
  command: string;
  /** Null when there is none: killed, timed out. */
  exitCode: number | null;
  /** What it printed (stdout and stderr together), as the tool's result holds it. */
  output: string;
  /** It was sent to the background (its output is not its end). */
  background?: boolean;
}

/** What claude returns instead of the whole output: a preview of a long one, a command still running after its timeout. */
const CUT = /^<persisted-output>|\n\.\.\. \[\d+ (?:characters|lines) truncated\] \.\.\.\n/;
const STILL_RUNNING = /^\[still running\]/;

/** The command's evidence; undefined when it is no verification command (a read, `git diff`). */
export function runEvidence(project: EvidenceProject, run: CommandRun): Evidence | undefined {
  const verification = verificationOf(project.policy, run.command);
  if (!verification.verifies) return undefined;
  const { command } = run;
  if (!verification.exitCodeCounts) return { command, exit_code: null };
  const resolution = resolve(project.files, run.command, verification);
  const runners = resolution.calls.filter((c) => c.family !== 'make');
  const families = [...new Set(resolution.calls.map((c) => c.family))];
  const reading = (why: string): Evidence => ({ command, exit_code: run.exitCode, not_counted: why });
  if (run.exitCode !== 0) return failingRun(run, families);
  const noRun = runners.map((c) => runsNoTest(c.family, c.args)).find((why) => why !== undefined);
  if (noRun !== undefined) return reading(noRun);
  if (run.background) return reading('it ran in the background');
  if (STILL_RUNNING.test(run.output)) return reading('it had not finished (claude moved it to the background)');
  if (runners.length === 0) return reading(noRunnerText(command, resolution));
  const byHand = handPrintedSummary(families, resolution.printed);
  if (byHand !== undefined) return reading(`it prints a test summary by hand (\`${clip(byHand, 80)}\`)`);
  const printer = resolution.printers[0];
  if (printer !== undefined)
    return reading(`it also runs \`${clip(printer, 80)}\`, which can print or drop lines of the runner's output: run the runner by itself`);
  const summary = readSummary(families, run.output, { nodeNameFilter: runners.some(nodeNameFilter) });
  if (summary?.outcome === 'failed') return { ...failingRun(run, families), not_counted: 'its output reports failing tests' };
  if (summary === undefined) {
    // Claude kept only part of a long output: the summary at its end is gone; the runner's exit code stands.
    return CUT.test(run.output) ? passingRun(command, resolution, runners, undefined) : reading('its output shows no test summary that ccc reads');
  }
  if (summary.outcome === 'none') return { ...reading(nonePassedText(summary)), ...(summary.notPassed ? { not_passed: summary.notPassed } : {}) };
  return passingRun(command, resolution, runners, summary);
}

function resolve(files: ProjectFiles, command: string, verification: ReturnType<typeof verificationOf>): Resolution {
  // An allowed command exactly (a rule command may be `npm run build && npm test`): all of it is the verification, none of its words the reviewer's.
  const segments = verification.exact ? shellSegments(command).map((words) => ({ words, dir: '.' })) : verification.runs;
  const merged: Resolution = { calls: [], others: [], focus: [], printed: [], printers: [] };
  for (const run of segments) {
    if (!run.words) continue;
    const found = resolveCommand(files, run.words, run.dir ?? '.');
    merged.calls.push(...found.calls.map((c) => (verification.exact ? { ...c, given: [] } : c)));
    merged.others.push(...found.others);
    merged.focus.push(...found.focus);
    merged.printed.push(...found.printed);
    merged.printers.push(...found.printers);
  }
  return merged;
}

function passingRun(
  command: string,
  resolution: Resolution,
  runners: readonly RunnerCall[],
  summary: Extract<RunSummary, { outcome: 'passed' }> | undefined,
): Evidence {
  const focus = [...resolution.focus, ...runners.map((c) => focusOf(c.family, c.given)).filter((f): f is string => f !== undefined)];
  const deselected = (summary?.notPassed?.deselected ?? 0) > 0;
  return {
    command,
    exit_code: 0,
    scope: focus.length || deselected ? 'focused' : 'whole',
    ...(focus.length ? { focus: [...new Set(focus)].join(', ') } : {}),
    ...(summary?.tests === undefined ? {} : { tests: summary.tests }),
    ...(summary?.notPassed ? { not_passed: summary.notPassed } : {}),
  };
}

function failingRun(run: CommandRun, families: readonly Family[]): Evidence {
  const summary = run.exitCode === null ? undefined : readSummary(families, run.output);
  if (summary?.outcome === 'none' && run.exitCode !== 0) return { command: run.command, exit_code: run.exitCode, not_counted: nonePassedText(summary) };
  const failures = failingTests(run.output);
  const failed = summary?.outcome === 'failed' ? summary.failed : undefined;
  return {
    command: run.command,
    exit_code: run.exitCode,
    ...(failed === undefined ? {} : { failed }),
    ...(failures.length ? { failures } : {}),
  };
}

/** A call of node's runner with a name filter: its files whose tests it left out are reported as passing tests. */
function nodeNameFilter(call: RunnerCall): boolean {
  return call.family === 'node-test' && call.args.some((arg) => /^--test-(?:name-pattern|skip-pattern|only)(?:=|$)/.test(arg));
}

/**
 * The first `echo`/`printf` among what a command runs that prints what one of its runners' summaries
 * looks like. The output cannot tell that line from the runner's (it may follow a run that ran
 * nothing, or one whose output went to /dev/null), so none of the output can be read as a summary.
 */
function handPrintedSummary(families: readonly Family[], printed: readonly string[]): string | undefined {
  return printed.find((command) => {
    const words = command.split(' ').slice(1);
    while (/^-[neE]+$/.test(words[0] ?? '')) words.shift();
    return readSummary(families, words.join(' ').replace(/\\n/g, '\n')) !== undefined;
  });
}

/** `it ran no test`, or which tests it saw that did not pass: `no test passed (2 xfailed, 1 skipped)`. */
function nonePassedText(summary: RunSummary): string {
  const notPassed = summary.outcome === 'failed' ? undefined : summary.notPassed;
  const kinds = Object.entries(notPassed ?? {}).map(([kind, count]) => `${count} ${kind}`);
  return kinds.length ? `no test passed (${kinds.join(', ')})` : 'it ran no test';
}

/** `` `npm test` runs `echo 5 passed`: no test runner ccc knows ``. */
function noRunnerText(command: string, resolution: Resolution): string {
  const others = [...new Set(resolution.others)].slice(0, 2);
  const what = others.length ? `runs ${others.map((o) => `\`${o.length > 80 ? `${o.slice(0, 79)}…` : o}\``).join(', ')}` : 'runs nothing';
  return `it ${what}: no test runner ccc knows`;
}
