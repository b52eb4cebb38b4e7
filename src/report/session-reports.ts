/**
 * The reports of one headless run, fed by the session's streams and written when it ends: the
 * GitHub Actions job summary, outputs and annotation, the JUnit file, the event log file. Started
 * before the agent's first turn (a report file that cannot be written is a usage error, exit 2,
 * before anything runs); `finish` never throws: a report that cannot be written is said on
 * stderr and the run keeps its exit code (its log and events hold everything).
 */
import type { Subscription } from 'rxjs';
import type { Observable } from 'rxjs';
import { CccError, errorText } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import type { SupervisorEvent } from '../loop/events.js';
import { sessionLogPath } from '../state/paths.js';
import { githubReport } from './github-report.js';
import { junitReport } from './junit-report.js';
import type { ReportTargets } from './report-targets.js';
import type { ReportFiles, EventLogWriter } from './report-files.js';
import { runRecord } from './run-record.js';
import { stopCommandsToken } from './github-commands.js';

/** What the reports need of the session. */
export interface ReportedSession {
  readonly events$: Observable<SupervisorEvent>;
  readonly frames$: Observable<Frame>;
  readonly sessionId?: string;
  readonly configDir: string;
}

export interface SessionReportsOptions {
  targets: ReportTargets;
  env: NodeJS.ProcessEnv;
  /** `--json`: stdout carries JSON lines only, so workflow commands go to stderr. */
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  files: ReportFiles;
  hostname: string;
}

export interface SessionReports {
  finish(exitCode?: number): Promise<void>;
}

export async function startReports(session: ReportedSession, options: SessionReportsOptions): Promise<SessionReports> {
  const { targets, files } = options;
  if (targets.junit) await usable(() => files.checkWritable(targets.junit!), 'junit', targets.junit);
  const events: EventLogWriter | undefined = targets.events ? await usable(() => files.openEventLog(targets.events!), 'events', targets.events) : undefined;

  // Only what the record needs: every event, the result frames, and a frame when the session id changes.
  const lines: unknown[] = [];
  let lastSessionId: unknown;
  const subscriptions: Subscription[] = [
    session.events$.subscribe((event) => {
      lines.push(event);
      events?.write(event);
    }),
    session.frames$.subscribe((frame) => {
      events?.write({ kind: 'frame', frame });
      if (frame.type === 'result' || frame.session_id !== lastSessionId) {
        lastSessionId = frame.session_id;
        lines.push({
          kind: 'frame',
          frame: {
            type: frame.type,
            session_id: frame.session_id,
            total_cost_usd: frame.total_cost_usd,
            model_usage_since_last_result: frame.model_usage_since_last_result,
          },
        });
      }
    }),
  ];

  // Model text printed in the run (the agent's answers on stdout) must not be read as commands.
  const commandsOff = targets.github && !options.json ? stopCommandsToken() : undefined;
  if (commandsOff) options.stdout.write(`::stop-commands::${commandsOff}\n`);

  let finished = false;
  return {
    async finish(exitCode?: number) {
      if (finished) return;
      finished = true;
      for (const s of subscriptions) s.unsubscribe();
      if (commandsOff) options.stdout.write(`::${commandsOff}::\n`);
      const problems: string[] = [];
      const attempt = async (what: string, write: () => Promise<void>) => {
        try {
          await write();
        } catch (error) {
          problems.push(`ccc: cannot write ${what}: ${errorText(error)}\n`);
        }
      };
      if (events) await attempt(`the event log ${targets.events}`, () => events.close());
      const record = runRecord(lines);
      if (record.exitCode === undefined && exitCode !== undefined) record.exitCode = exitCode;
      const log = session.sessionId ? sessionLogPath(session.configDir, session.sessionId) : undefined;
      const logFile = log && files.exists(log) ? log : undefined;
      if (targets.junit)
        await attempt(`the JUnit report ${targets.junit}`, () => files.replace(targets.junit!, junitReport(record, { hostname: options.hostname, logFile })));
      if (targets.github) {
        const github = githubReport(record, { logFile, junitFile: targets.junit, eventsFile: targets.events });
        const summary = options.env.GITHUB_STEP_SUMMARY;
        const outputs = options.env.GITHUB_OUTPUT;
        if (summary) await attempt(`the job summary ${summary}`, () => files.append(summary, github.summary));
        else problems.push('ccc: GITHUB_STEP_SUMMARY is not set: no job summary\n');
        if (outputs) await attempt(`the step outputs ${outputs}`, () => files.append(outputs, github.outputs));
        else problems.push('ccc: GITHUB_OUTPUT is not set: no step outputs\n');
        (options.json ? options.stderr : options.stdout).write(`${github.annotation}\n`);
      }
      for (const problem of problems) options.stderr.write(problem);
    },
  };
}

async function usable<T>(open: () => Promise<T>, kind: string, file: string): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw new CccError('USAGE', `--report ${kind}=${file}: cannot write there (${errorText(error)}).`, { cause: error });
  }
}
