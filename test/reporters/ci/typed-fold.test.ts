/**
 * The CI reports fold a live run's typed events as they come, and a file's lines are checked only
 * where the file is read: each report of a live run is the same, byte for byte, as the report of
 * its event log read back from disk, and an event changed after it was handed over changes no
 * report (nothing is kept to be read again at the end). A damaged log on disk is refused where it
 * is read, naming the file and line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame } from '../../../src/frames/frame.js';
import type { SupervisorEvent } from '../../../src/loop/events.js';
import { loggedEvent, parseEventLog, readEventLog } from '../../../src/reporters/ci/event-log.js';
import { githubReport } from '../../../src/reporters/ci/github-report.js';
import { junitReport } from '../../../src/reporters/ci/junit-report.js';
import type { ReportFiles } from '../../../src/reporters/ci/report-files.js';
import { RunFold, runRecord } from '../../../src/reporters/ci/run-record.js';
import { ciReporters } from '../../../src/reporters/ci/session-reports.js';
import { ReporterSet } from '../../../src/reporters/reporter.js';
import { jsonReporter } from '../../../src/reporters/json.js';
import { runnerOutputs } from '../../support/github-runner.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const usage = (cost: number) => ({ input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 0, output_tokens: 5, cost_usd: cost });

type Item = { event: SupervisorEvent } | { frame: Frame };

/** A run with two reviews, reviewers that disagree, caps, evidence and the agent's cost, as the loop hands it over. */
function liveRun(): Item[] {
  return [
    { event: { kind: 'start', task: 'fix parse()\nand its tests', at: at(0) } },
    { event: { kind: 'phase', phase: 'agent', at: at(0) } },
    { frame: { type: 'system', subtype: 'init', session_id: 's-1' } },
    { frame: { type: 'assistant', session_id: 's-1', message: { content: [{ type: 'text', text: 'on it' }] } } },
    { frame: { type: 'result', session_id: 's-1', total_cost_usd: 9, model_usage_since_last_result: { m: { costUSD: 0.25 } } } },
    { event: { kind: 'iteration', n: 1, max: 3, at: at(10) } },
    { event: { kind: 'checker', checker: 'claude', state: 'start', at: at(10) } },
    {
      event: {
        kind: 'verdict',
        checker: 'claude',
        completed: false,
        feedback: 'FAIL test/parse.test.ts\nparse() drops the last field',
        iteration: 1,
        evidence: [{ command: 'npm test', exit_code: 1, tests: 12, failed: 1, scope: 'whole' }],
        review: 'forked',
        opinions: [
          { checker: 'claude', completed: false, feedback: 'no' },
          { checker: 'codex', completed: true, feedback: 'yes' },
        ],
        usage: usage(0.002),
        spent_usd: 0.252,
        cap_usd: 5,
        task_spent_usd: 0.252,
        task_cap_usd: 1,
        at: at(14),
      },
    },
    { event: { kind: 'tools', calls: [{ name: 'Edit', input: 'src/parse.ts' }], more: 0, at: at(15) } },
    { frame: { type: 'result', session_id: 's-2', model_usage_since_last_result: { m: { costUSD: 0.125 } } } },
    { event: { kind: 'iteration', n: 2, max: 3, at: at(20) } },
    { event: { kind: 'checker', checker: 'claude', state: 'done', duration_ms: 3000, at: at(23) } },
    {
      event: {
        kind: 'verdict',
        checker: 'claude',
        completed: true,
        feedback: 'done',
        iteration: 2,
        verification: 'verified',
        evidence: [{ command: 'npm test', exit_code: 0, tests: 12, scope: 'whole' }],
        usage: usage(0.003),
        spent_usd: 0.38,
        cap_usd: 5,
        at: at(23),
      },
    },
    { event: { kind: 'end', exit_code: 0, reviews: 2, review_usage: usage(0.005), spent_usd: 0.38, at: at(24) } },
  ];
}

/** The run as `--json` writes it, one line each. */
function jsonLines(items: Item[]): string {
  return items.map((item) => JSON.stringify('event' in item ? item.event : { kind: 'frame', frame: item.frame })).join('\n') + '\n';
}

function play(reporter: { onEvent(e: SupervisorEvent): void; onFrame?(f: Frame): void }, items: Item[]) {
  for (const item of items) {
    if ('event' in item) reporter.onEvent(item.event);
    else reporter.onFrame?.(item.frame);
  }
}

/** Every top-level field an agent or a bug could change after handing an event over, changed. */
function tamper(items: Item[]) {
  for (const item of items) {
    if (!('event' in item)) {
      Object.assign(item.frame, { session_id: 'forged', model_usage_since_last_result: { m: { costUSD: 100 } } });
      continue;
    }
    const e = item.event as Record<string, unknown>;
    for (const key of ['task', 'feedback', 'checker', 'message']) if (typeof e[key] === 'string') e[key] = `forged ${key}`;
    if (e.kind === 'verdict') Object.assign(e, { completed: !e.completed, evidence: [], cap_usd: 0 });
    if (e.kind === 'end') Object.assign(e, { exit_code: 9, review_usage: usage(100), at: at(50) });
    if (e.kind === 'iteration') e.n = 99;
  }
}

function memoryFiles() {
  const written = new Map<string, string>();
  const eventLog: string[] = [];
  const files: ReportFiles = {
    append: async (file, text) => void written.set(file, (written.get(file) ?? '') + text),
    replace: async (file, text) => void written.set(file, text),
    checkWritable: async () => {},
    // As report-files.ts writes it: one JSON line per event, when it comes.
    openEventLog: async () => ({ write: (line) => void eventLog.push(JSON.stringify(line)), close: async () => {} }),
    exists: () => false,
  };
  return { files, written, eventLog };
}

async function liveReports(targets: { github: boolean; junit?: string; events?: string }, env: NodeJS.ProcessEnv = {}) {
  const { files, written, eventLog } = memoryFiles();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const set = new ReporterSet((error) => {
    throw error;
  });
  const options = { targets, env, json: true, stdout, stderr, files, hostname: 'runner-1', configDir: '/nowhere' };
  for (const reporter of await ciReporters(options)) set.add(reporter);
  const text = (s: PassThrough) => (s.read() as Buffer | null)?.toString('utf8') ?? '';
  return { set, written, eventLog, stderr: () => text(stderr) };
}

/** The record of the run's log read back as `ccc report` reads it. */
const fromDisk = (items: Item[]) => runRecord(parseEventLog(jsonLines(items), 'run.jsonl'));

describe('RunFold', () => {
  it('a live run folded event by event is the record of its log read back', () => {
    const fold = new RunFold();
    for (const item of liveRun()) fold.add('event' in item ? item.event : { kind: 'frame', frame: item.frame });
    const live = fold.record();
    expect(live).toEqual(fromDisk(liveRun()));
    expect(live).toMatchObject({ outcome: 'completed', verification: 'verified', agentCostUsd: 0.375, sessionId: 's-2', capUsd: 5, durationMs: 24_000 });
    expect(live.reviews.map((r) => [r.n, r.result, r.durationMs, r.opinions?.length])).toEqual([
      [1, 'not complete', 4000, 2],
      [2, 'complete', 3000, undefined],
    ]);
  });

  it('the record so far, at any point, and folding goes on after it', () => {
    const items = liveRun();
    const fold = new RunFold();
    items.forEach((item, i) => {
      fold.add('event' in item ? item.event : { kind: 'frame', frame: item.frame });
      expect(fold.record()).toEqual(fromDisk(items.slice(0, i + 1)));
    });
  });
});

describe('each CI report folds the typed events as they come', () => {
  it('JUnit: the same bytes as the report of the log on disk; an event changed after it came changes nothing', async () => {
    const reports = await liveReports({ github: false, junit: '/r/junit.xml' });
    const items = liveRun();
    play(reports.set, items);
    tamper(items);
    await reports.set.close({ exitCode: 0, sessionId: 's-2' });
    expect(reports.written.get('/r/junit.xml')).toBe(junitReport(fromDisk(liveRun()), { hostname: 'runner-1' }));
    expect(reports.stderr()).toBe('');
  });

  it('GitHub: the same summary, outputs and annotation as from the log on disk; an event changed after it came changes nothing', async () => {
    const reports = await liveReports({ github: true }, { GITHUB_STEP_SUMMARY: '/gh/summary', GITHUB_OUTPUT: '/gh/output' });
    const items = liveRun();
    play(reports.set, items);
    tamper(items);
    await reports.set.close({ exitCode: 0, sessionId: 's-2' });
    const expected = githubReport(fromDisk(liveRun()), {});
    expect(reports.written.get('/gh/summary')).toBe(expected.summary);
    // Each output's heredoc delimiter is random: the outputs are compared as the runner reads them.
    expect(runnerOutputs(reports.written.get('/gh/output')!)).toEqual(runnerOutputs(expected.outputs));
    expect(reports.stderr()).toBe(`${expected.annotation}\n`);
  });

  it('the event log: its lines, read back, are the record the live reports folded', async () => {
    const reports = await liveReports({ github: false, junit: '/r/junit.xml', events: '/r/events.jsonl' });
    play(reports.set, liveRun());
    await reports.set.close({ exitCode: 0, sessionId: 's-2' });
    const readBack = runRecord(parseEventLog(reports.eventLog.join('\n'), 'events.jsonl'));
    expect(readBack).toEqual(fromDisk(liveRun()));
    expect(reports.written.get('/r/junit.xml')).toBe(junitReport(readBack, { hostname: 'runner-1' }));
  });

  it('--json: its stdout, read back, is the record of the typed events folded live', () => {
    const stdout = new PassThrough();
    play(jsonReporter(stdout), liveRun());
    const fold = new RunFold();
    for (const item of liveRun()) fold.add('event' in item ? item.event : { kind: 'frame', frame: item.frame });
    expect(runRecord(parseEventLog((stdout.read() as Buffer).toString('utf8'), 'stdout'))).toEqual(fold.record());
  });
});

describe('a log on disk is checked where it is read', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const write = (name: string, text: string | Buffer) => {
    dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-typed-fold-'));
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('a good log reads back as the run it was', async () => {
    const file = write('good.jsonl', jsonLines(liveRun()));
    expect(runRecord(await readEventLog(file))).toEqual(fromDisk(liveRun()));
  });

  it('a damaged log is refused with the file and line: cut short, zero-filled after a crash, binary, not there', async () => {
    const lines = jsonLines(liveRun()).split('\n');
    const cut = write('cut.jsonl', [...lines.slice(0, 7), lines[7]!.slice(0, 40)].join('\n'));
    await expect(readEventLog(cut)).rejects.toMatchObject({
      code: 'USAGE',
      exitCode: 2,
      message: expect.stringMatching(new RegExp(`^${cut}:8: not JSON \\(`)),
    });
    const zeroed = write('zeroed.jsonl', Buffer.concat([Buffer.from(lines.slice(0, 3).join('\n') + '\n'), Buffer.alloc(64)]));
    await expect(readEventLog(zeroed)).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(new RegExp(`^${zeroed}:4: not JSON \\(`)) });
    const binary = write('binary.jsonl', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await expect(readEventLog(binary)).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining(`${binary}:1: `) });
    const other = write('other.jsonl', '{"level":"info","msg":"a log of something else"}\n');
    await expect(readEventLog(other)).rejects.toMatchObject({ message: expect.stringContaining(`${other}:1: not a ccc event`) });
    await expect(readEventLog(path.join(path.dirname(cut), 'gone.jsonl'))).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/gone\.jsonl does not exist/),
    });
  });

  it('a line of the wrong shape is read field by field: what is wrong is left out, nothing made up', () => {
    expect(loggedEvent({ kind: 'verdict', completed: 'yes', feedback: 3, evidence: [{ anything: true }], cap_usd: -1, at: at(1) })).toEqual({
      kind: 'verdict',
      at: at(1),
    });
    expect(loggedEvent({ kind: 'stopped', reason: 'made-up', message: 'm' })).toEqual({ kind: 'stopped', message: 'm' });
    expect(loggedEvent({ kind: 'future', at: at(2) })).toEqual({ at: at(2) });
    expect(loggedEvent({ kind: 'frame', frame: { type: 'result', session_id: 7 } })).toEqual({
      kind: 'frame',
      frame: { type: 'result', total_cost_usd: undefined, model_usage_since_last_result: undefined },
    });
    expect(loggedEvent([])).toBeUndefined();
  });
});
