/**
 * The reporters: a set hands every event and frame to each reporter, one that throws does not keep
 * them from the others, and it closes them once; the progress lines a person reads; which
 * reporters each mode gets.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { event } from '../../src/loop/events.js';
import { ReporterSet, type Reporter } from '../../src/reporters/reporter.js';
import { progressReporter } from '../../src/reporters/progress.js';
import { reportersFor } from '../../src/reporters/reporters.js';
import { NO_USAGE } from '../../src/claude/usage.js';

function recording(): Reporter & { seen: string[]; closed: number } {
  const seen: string[] = [];
  const r = {
    seen,
    closed: 0,
    onEvent: (e: { kind: string }) => void seen.push(e.kind),
    onFrame: (f: { type: string }) => void seen.push(`frame:${f.type}`),
    close: async () => void r.closed++,
  };
  return r;
}

describe('ReporterSet', () => {
  it('every reporter hears every event and frame in order, also after one that throws; each is closed once', async () => {
    const errors: unknown[] = [];
    const set = new ReporterSet((error) => errors.push(error));
    const first = recording();
    const last = recording();
    set.add(first);
    set.add({
      onEvent: () => {
        throw new Error('broken reporter');
      },
      close: async () => {
        throw new Error('broken close');
      },
    });
    set.add(last);
    set.onEvent(event({ kind: 'phase', phase: 'agent' }));
    set.onFrame({ type: 'assistant' });
    set.onEvent(event({ kind: 'end', exit_code: 0 }));
    await set.close({ exitCode: 0 });
    await set.close({ exitCode: 0 });
    expect(first.seen).toEqual(['phase', 'frame:assistant', 'end']);
    expect(last.seen).toEqual(first.seen);
    expect([first.closed, last.closed]).toEqual([1, 1]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['broken reporter', 'broken reporter', 'broken close']);
  });

  it('a reporter removed hears nothing more', () => {
    const set = new ReporterSet();
    const r = recording();
    const remove = set.add(r);
    set.onEvent(event({ kind: 'phase', phase: 'agent' }));
    remove();
    set.onEvent(event({ kind: 'phase', phase: 'idle' }));
    expect(r.seen).toEqual(['phase']);
  });
});

describe('progressReporter', () => {
  it("a long feedback shows the runner's failure lines, in their order, before its other lines; the rest is in the log", () => {
    let err = '';
    const progress = progressReporter({ write: (t) => (err += t) });
    const feedback = [
      'npm test fails in two places.',
      ...Array.from({ length: 20 }, (_, i) => `  PASS src/module-${i}.test.js`),
      '  ● parse › empty input',
      '    Expected length: 1',
      '    Received length: 0',
      ...Array.from({ length: 10 }, (_, i) => `      at frame${i} (node_modules/x.js:${i}:1)`),
      '  ● parse › keeps empty fields',
    ].join('\n');
    progress.onEvent(event({ kind: 'verdict', checker: 'claude', completed: false, feedback, iteration: 1 }));
    expect(err.split('\n').filter(Boolean)).toEqual([
      'ccc: ✗ not complete (claude): npm test fails in two places.',
      ...Array.from({ length: 11 }, (_, i) => `ccc:   │   PASS src/module-${i}.test.js`),
      'ccc:   │ …',
      'ccc:   │   ● parse › empty input',
      'ccc:   │     Expected length: 1',
      'ccc:   │     Received length: 0',
      'ccc:   │ …',
      'ccc:   │   ● parse › keeps empty fields',
      'ccc:   │ … 19 more lines in the log',
    ]);
  });

  it('inert lines on stderr, the agent text on stdout; a stop for the error just shown is not shown again', () => {
    let err = '';
    let out = '';
    const progress = progressReporter({ write: (t) => (err += t), agentText: (t) => (out += t) });
    progress.onEvent(event({ kind: 'iteration', n: 1, max: 3 }));
    progress.onEvent(event({ kind: 'verdict', checker: 'claude', completed: false, feedback: 'fix \x1b[31mthis\x1b[0m\nline two', iteration: 1 }));
    progress.onEvent(event({ kind: 'error', message: 'the agent exited with code 1' }));
    progress.onEvent(event({ kind: 'stopped', reason: 'checker-failed', message: 'the agent exited with code 1' }));
    progress.onEvent(event({ kind: 'end', exit_code: 1, reviews: 1, review_usage: NO_USAGE }));
    progress.onFrame!({ type: 'assistant', message: { content: [{ type: 'text', text: 'done \x1b]0;x\x07' }] } });
    expect(err).toBe(
      'ccc: review 1/3\n' +
        'ccc: ✗ not complete (claude): fix  [31mthis [0m\nccc:   │ line two\n' +
        'ccc: error: the agent exited with code 1\n' +
        'ccc: 1 review\n',
    );
    expect(out).not.toContain('\x1b');
    expect(out).toMatch(/^done .*\n$/);
  });
});

describe('reportersFor', () => {
  const stream = () => new PassThrough();
  it('headless: progress, or `--json` lines instead; no reports unless asked for', async () => {
    const io = { stdout: stream(), stderr: stream() };
    const plain = await reportersFor({ mode: 'headless', json: false, shown: io, ...io, reports: { github: false }, env: {}, configDir: '/nowhere' });
    const json = await reportersFor({ mode: 'headless', json: true, shown: io, ...io, reports: { github: false }, env: {}, configDir: '/nowhere' });
    expect([plain.length, json.length]).toEqual([1, 1]);
    json[0]!.onEvent(event({ kind: 'phase', phase: 'agent' }));
    json[0]!.onFrame!({ type: 'system' });
    const lines = (io.stdout.read() as Buffer)
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([
      { kind: 'phase', phase: 'agent' },
      { kind: 'frame', frame: { type: 'system' } },
    ]);
  });

  it('the hook has none', async () => {
    expect(await reportersFor({ mode: 'hook' })).toEqual([]);
  });
});
