/**
 * A user's reporter named in `reporters`, in its own thread: it hears the events, frames and end in
 * order (object, class and factory exports, TypeScript without a build), and nothing it does
 * reaches the run: a throw is a warning, a module that cannot load is a warning, `process.exit`
 * ends only its thread, a close that never ends is stopped at its bound, its stdout goes to the log.
 * Needs `npm run build` (the worker runs from dist/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { SupervisorEvent } from '../../src/loop/events.js';
import { reportersFor } from '../../src/reporters/reporters.js';
import { reporterProblem } from '../../src/reporters/reporter-module.js';

let dir: string;
beforeEach(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-reporter-')))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const at = '2026-01-01T10:00:00.000Z';
const events: SupervisorEvent[] = [
  { kind: 'start', task: 'build it', at },
  { kind: 'verdict', checker: 'claude', completed: true, feedback: 'ok', iteration: 1, at },
  { kind: 'end', exit_code: 0, at },
];

async function attach(specifier: string, source: string) {
  fs.writeFileSync(path.join(dir, specifier), source);
  const warnings: string[] = [];
  const logged: string[] = [];
  const config = { ...defaultConfig(), reporters: [`./${specifier}`] };
  const [reporter] = await reportersFor({ mode: 'hook', own: { config, cwd: dir, env: {}, warn: (m) => warnings.push(m), log: (m) => logged.push(m) } });
  return { reporter: reporter!, warnings, logged };
}

const out = (name = 'seen.jsonl') => path.join(dir, name);
const seen = (name = 'seen.jsonl') =>
  fs.existsSync(out(name))
    ? fs
        .readFileSync(out(name), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe("a user's reporter", () => {
  it('a TypeScript object export hears every event in order, then the end, and its console output goes to the log', async () => {
    const { reporter, warnings, logged } = await attach(
      'mine.ts',
      `import fs from 'node:fs';
       const file: string = ${JSON.stringify(out())};
       export default {
         onEvent(e: { kind: string }) { fs.appendFileSync(file, JSON.stringify({ kind: e.kind }) + '\\n'); console.log('saw ' + e.kind); },
         async close(end: { exitCode?: number }) { await new Promise((r) => setTimeout(r, 50)); fs.appendFileSync(file, JSON.stringify({ closed: end.exitCode }) + '\\n'); },
       };`,
    );
    for (const e of events) reporter.onEvent(e);
    await reporter.close!({ exitCode: 0 });
    expect(seen()).toEqual([{ kind: 'start' }, { kind: 'verdict' }, { kind: 'end' }, { closed: 0 }]);
    expect(warnings).toEqual([]);
    expect(logged).toContain('reporter "./mine.ts" wrote to stdout: saw start');
  });

  it('a class (vitest style) and a factory get the context', async () => {
    for (const [name, body] of [
      [
        'cls.mjs',
        `export default class { constructor(c) { this.c = c; } onEvent(e) { fs.appendFileSync(F, JSON.stringify({ mode: this.c.mode, kind: e.kind }) + '\\n'); } }`,
      ],
      ['fac.mjs', `export default (c) => ({ onEvent(e) { fs.appendFileSync(F, JSON.stringify({ mode: c.mode, kind: e.kind }) + '\\n'); } })`],
    ] as const) {
      const { reporter } = await attach(name, `import fs from 'node:fs'; const F = ${JSON.stringify(out(`${name}.jsonl`))};\n${body}`);
      reporter.onEvent(events[0]!);
      await reporter.close!({});
      expect(seen(`${name}.jsonl`)).toEqual([{ mode: 'hook', kind: 'start' }]);
    }
  });

  it('a reporter that throws is said once per method and keeps being called', async () => {
    const { reporter, warnings } = await attach(
      'throws.mjs',
      `import fs from 'node:fs'; export default { onEvent(e) { fs.appendFileSync(${JSON.stringify(out())}, JSON.stringify({ kind: e.kind }) + '\\n'); throw new Error('boom ' + e.kind); } };`,
    );
    for (const e of events) reporter.onEvent(e);
    await reporter.close!({});
    expect(seen()).toHaveLength(3);
    expect(warnings).toEqual(['reporter "./throws.mjs" threw in onEvent: boom start (said once; it keeps being called)']);
  });

  it('a module that cannot load, one that calls process.exit, one whose close never ends: warnings, and the run goes on', async () => {
    const broken = await attach('broken.mjs', 'export default 42;');
    broken.reporter.onEvent(events[0]!);
    await broken.reporter.close!({});
    expect(broken.warnings).toEqual([
      expect.stringMatching(
        /^reporter "\.\/broken\.mjs" could not be loaded: its default export gives number 42, not a reporter object; the run goes on without it$/,
      ),
    ]);

    const exits = await attach('exits.mjs', 'export default { onEvent() { process.exit(7); } };');
    exits.reporter.onEvent(events[0]!);
    await expect.poll(() => exits.warnings).toEqual(['reporter "./exits.mjs" ended (process.exit(7)); the run goes on without it']);
    exits.reporter.onEvent(events[1]!); // nothing to post to: ignored
    await exits.reporter.close!({});

    const hangs = await attach('hangs.mjs', 'export default { close() { for (;;) {} } };');
    await hangs.reporter.close!({});
    expect(hangs.warnings).toEqual(['reporter "./hangs.mjs" did not finish its close within 5000 ms; stopped']);
  }, 30_000);

  it('a reporter that is not there is a clear problem before the run', async () => {
    expect(await reporterProblem('notify', dir)).toBeUndefined();
    expect(await reporterProblem('./nope.ts', dir)).toMatch(/^Reporter "\.\/nope\.ts" does not exist \(looked for .*nope\.ts; relative paths start from /);
    expect(await reporterProblem('no-such-reporter-pkg', dir)).toMatch(/is neither a built-in reporter \(notify\) nor a package that can be found/);
  });
});
