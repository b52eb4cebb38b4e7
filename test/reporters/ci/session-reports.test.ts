/**
 * The reports of a session as its reporters, fed its events and frames, with the file edge faked:
 * what is written where, and that a report which cannot be written is said on stderr without
 * failing the run.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { event } from '../../../src/loop/events.js';
import type { ReportFiles } from '../../../src/reporters/ci/report-files.js';
import { ciReporters, type CiReportOptions } from '../../../src/reporters/ci/session-reports.js';
import { ReporterSet } from '../../../src/reporters/reporter.js';
import { runnerCommands, runnerOutputs } from '../../support/github-runner.js';

function fakeFiles(failing: string[] = []) {
  const written = new Map<string, string>();
  const eventLog: unknown[] = [];
  const fail = async (file: string) => {
    if (failing.includes(file)) throw new Error(`EISDIR: illegal operation on a directory`);
  };
  const files: ReportFiles = {
    append: async (file, text) => (await fail(file), written.set(file, (written.get(file) ?? '') + text), undefined),
    replace: async (file, text) => (await fail(file), written.set(file, text), undefined),
    checkWritable: fail,
    openEventLog: async () => ({ write: (line) => eventLog.push(line), close: async () => {} }),
    exists: () => false,
  };
  return { files, written, eventLog };
}

function text(stream: PassThrough): string {
  return (stream.read() as Buffer | null)?.toString('utf8') ?? '';
}

/** The reports as a run holds them: one set, closed with how the run ended. */
async function startReports(options: Omit<CiReportOptions, 'configDir'>) {
  const set = new ReporterSet((error) => {
    throw error;
  });
  for (const reporter of await ciReporters({ ...options, configDir: '/nowhere' })) set.add(reporter);
  return { set, finish: (exitCode: number) => set.close({ exitCode, sessionId: 'abc' }) };
}

function playRun({ set }: { set: ReporterSet }) {
  set.onEvent(event({ kind: 'start', task: 'do it' }));
  set.onFrame({ type: 'system', session_id: 'abc' });
  set.onFrame({ type: 'result', session_id: 'abc', model_usage_since_last_result: { m: { costUSD: 0.5 } } });
  set.onEvent(event({ kind: 'iteration', n: 1, max: 3 }));
  set.onEvent(
    event({
      kind: 'verdict',
      checker: 'claude',
      completed: true,
      feedback: 'ok',
      iteration: 1,
      evidence: [{ command: 'npm test', exit_code: 0, scope: 'whole' }],
    }),
  );
  set.onEvent(event({ kind: 'end', exit_code: 0, reviews: 1 }));
}

describe('startReports', () => {
  it('GitHub, JUnit and the event log from the streams; commands off while the run prints', async () => {
    const { files, written, eventLog } = fakeFiles();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const env = { GITHUB_STEP_SUMMARY: '/gh/summary', GITHUB_OUTPUT: '/gh/output' };
    const reports = await startReports({
      targets: { github: true, junit: '/r/junit.xml', events: '/r/events.jsonl' },
      env,
      json: false,
      stdout,
      stderr,
      files,
      hostname: 'h',
    });
    playRun(reports);
    await reports.finish(0);
    await reports.finish(0);
    expect(runnerOutputs(written.get('/gh/output')!)).toMatchObject({
      completed: 'true',
      verified: 'true',
      verification: 'verified',
      exit_code: '0',
      cost_usd: '0.5',
      session_id: 'abc',
      log_file: '',
      junit_file: '/r/junit.xml',
      events_file: '/r/events.jsonl',
    });
    expect(written.get('/gh/summary')).toContain('### ✅ ccc: completed, verified');
    expect(written.get('/r/junit.xml')).toContain('<testsuite name="do it"');
    expect(eventLog.map((l) => (l as { kind: string }).kind)).toEqual(['start', 'frame', 'frame', 'iteration', 'verdict', 'end']);
    const out = text(stdout);
    expect(out).toMatch(
      /^::stop-commands::(ccc-[0-9a-f]{32})\n::\1::\n::notice title=ccc%3A completed%2C verified::The checker confirmed completion, verified by: npm test /,
    );
    expect(runnerCommands(out)).toHaveLength(1);
    expect(text(stderr)).toBe('');
  });

  it('a report that cannot be written, or GitHub files that are not set, is said on stderr; the others are still written', async () => {
    const { files, written } = fakeFiles(['/gh/summary']);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const reports = await startReports({
      targets: { github: true, junit: '/r/junit.xml' },
      env: { GITHUB_STEP_SUMMARY: '/gh/summary' },
      json: true,
      stdout,
      stderr,
      files,
      hostname: 'h',
    });
    playRun(reports);
    await expect(reports.finish(0)).resolves.toBeUndefined();
    expect(written.has('/r/junit.xml')).toBe(true);
    const err = text(stderr);
    expect(err).toContain('ccc: cannot write the job summary /gh/summary: EISDIR');
    expect(err).toContain('ccc: GITHUB_OUTPUT is not set: no step outputs');
    expect(runnerCommands(err)).toHaveLength(1);
    expect(text(stdout)).toBe('');
  });

  it('a JUnit file that cannot be written is a usage error before the run', async () => {
    const { files } = fakeFiles(['/r/junit.xml']);
    await expect(
      startReports({
        targets: { github: false, junit: '/r/junit.xml' },
        env: {},
        json: false,
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        files,
        hostname: 'h',
      }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      exitCode: 2,
      message: expect.stringContaining('--report junit=/r/junit.xml: cannot write there'),
    });
  });
});
