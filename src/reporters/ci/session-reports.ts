/**
 * The reports of one headless run, as reporters (src/reporters/reporter.ts), one per `--report`
 * name as vitest keys its reporters by name: the GitHub Actions job summary, outputs and
 * annotation (`github`), the JUnit file (`junit`), the event log file (`events`). Made before the
 * agent's first turn (a report file that cannot be written is a usage error, exit 2, before
 * anything runs); closing one never throws: a report that cannot be written is said on stderr and
 * the run keeps its exit code (its log and events hold everything).
 */
import { CccError, errorText } from '../../errors.js';
import { sessionLogPath } from '../../state/paths.js';
import type { Reporter, RunEnd } from '../reporter.js';
import { githubReport } from './github-report.js';
import { junitReport } from './junit-report.js';
import type { ReportTargets } from './report-targets.js';
import type { ReportFiles } from './report-files.js';
import { RunFold, type RunRecord } from './run-record.js';
import { stopCommandsToken } from './github-commands.js';

export interface CiReportOptions {
  targets: ReportTargets;
  env: NodeJS.ProcessEnv;
  /** `--json`: stdout carries JSON lines only, so workflow commands go to stderr. */
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  files: ReportFiles;
  hostname: string;
  /** Where the session logs are (a report names the run's log when it exists). */
  configDir: string;
}

/** What every report of the run shares: the run's record, folded as its events come, and where its log is. */
interface FoldedRun {
  record(end: RunEnd): RunRecord;
  logFile(end: RunEnd): string | undefined;
}

type ReportName = 'junit' | 'events' | 'github';

/** The reports by `--report` name; each is made only when asked for, in this order. */
const CI_REPORTERS: Record<ReportName, (options: CiReportOptions, run: FoldedRun) => Promise<Reporter>> = {
  junit: junitReporter,
  events: eventsReporter,
  github: githubReporter,
};

/** The reporters `targets` asks for, the first of them folding the run's record for the others. */
export async function ciReporters(options: CiReportOptions): Promise<Reporter[]> {
  const names = (Object.keys(CI_REPORTERS) as ReportName[]).filter((name) => (name === 'github' ? options.targets.github : options.targets[name]));
  if (names.length === 0) return [];
  const run = foldedRun(options);
  const reporters = [run.reporter];
  for (const name of names) reporters.push(await CI_REPORTERS[name](options, run));
  return reporters;
}

/** The run's events and frames folded into its record as they come: nothing is kept to be read again at the end. */
function foldedRun(options: CiReportOptions): FoldedRun & { reporter: Reporter } {
  const fold = new RunFold();
  return {
    reporter: {
      onEvent: (event) => fold.add(event),
      onFrame: (frame) => fold.add({ kind: 'frame', frame }),
    },
    record(end) {
      const record = fold.record();
      if (record.exitCode === undefined && end.exitCode !== undefined) record.exitCode = end.exitCode;
      return record;
    },
    logFile(end) {
      const log = end.sessionId ? sessionLogPath(options.configDir, end.sessionId) : undefined;
      return log && options.files.exists(log) ? log : undefined;
    },
  };
}

async function junitReporter(options: CiReportOptions, run: FoldedRun): Promise<Reporter> {
  const file = options.targets.junit!;
  await usable(() => options.files.checkWritable(file), 'junit', file);
  return {
    onEvent: () => {},
    close: (end) =>
      attempt(options, `the JUnit report ${file}`, () =>
        options.files.replace(file, junitReport(run.record(end), { hostname: options.hostname, logFile: run.logFile(end) })),
      ),
  };
}

async function eventsReporter(options: CiReportOptions): Promise<Reporter> {
  const file = options.targets.events!;
  const log = await usable(() => options.files.openEventLog(file), 'events', file);
  return {
    onEvent: (event) => log.write(event),
    onFrame: (frame) => log.write({ kind: 'frame', frame }),
    close: () => attempt(options, `the event log ${file}`, () => log.close()),
  };
}

async function githubReporter(options: CiReportOptions, run: FoldedRun): Promise<Reporter> {
  // Model text printed in the run (the agent's answers on stdout) must not be read as commands.
  const commandsOff = !options.json ? stopCommandsToken() : undefined;
  if (commandsOff) options.stdout.write(`::stop-commands::${commandsOff}\n`);
  return {
    onEvent: () => {},
    async close(end) {
      if (commandsOff) options.stdout.write(`::${commandsOff}::\n`);
      const { targets, env } = options;
      const github = githubReport(run.record(end), { logFile: run.logFile(end), junitFile: targets.junit, eventsFile: targets.events });
      const summary = env.GITHUB_STEP_SUMMARY;
      const outputs = env.GITHUB_OUTPUT;
      const unset: string[] = [];
      if (summary) await attempt(options, `the job summary ${summary}`, () => options.files.append(summary, github.summary));
      else unset.push('ccc: GITHUB_STEP_SUMMARY is not set: no job summary\n');
      if (outputs) await attempt(options, `the step outputs ${outputs}`, () => options.files.append(outputs, github.outputs));
      else unset.push('ccc: GITHUB_OUTPUT is not set: no step outputs\n');
      (options.json ? options.stderr : options.stdout).write(`${github.annotation}\n`);
      for (const line of unset) options.stderr.write(line);
    },
  };
}

/** Writes a report; one that cannot be written is said on stderr, and the run goes on. */
async function attempt(options: CiReportOptions, what: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    options.stderr.write(`ccc: cannot write ${what}: ${errorText(error)}\n`);
  }
}

async function usable<T>(open: () => Promise<T>, kind: string, file: string): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw new CccError('USAGE', `--report ${kind}=${file}: cannot write there (${errorText(error)}).`, { cause: error });
  }
}
