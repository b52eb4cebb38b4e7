/**
 * The plugin API: `defineChecker` keeps the plugin's own type; a `defineChecker({ name, create })`
 * plugin is named without being instantiated; calling it in a ccc.config.ts declares it with its
 * options, and it still runs in its own thread; `reportUsage` takes any of the usage fields and
 * `reportCost` still works. Real worker threads, a real ccc.config.ts loaded through jiti.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { defineChecker, isCheckerDefinition } from '../../src/checkers/define-checker.js';
import { runPipeline } from '../../src/checkers/pipeline.js';
import { buildPipeline } from '../../src/checkers/registry.js';
import type { Checker, Usage } from '../../src/checkers/types.js';
import { loadConfig } from '../../src/config/load.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';
import { checkContext } from './check-context.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const never = new AbortController().signal;
const write = (name: string, text: string) => fs.writeFileSync(path.join(t.project, name), text);

describe('defineChecker', () => {
  it("returns a checker object or a factory as it is, with the plugin's own type", () => {
    const checker = defineChecker({ name: 'own', check: () => ({ completed: true, feedback: '' }), extra: 42 });
    expectTypeOf(checker.extra).toEqualTypeOf<number>();
    const factory = defineChecker((options: { n: number }) => ({
      name: `f${options.n}`,
      check: () => ({ completed: true, feedback: '' }),
      count: () => options.n,
    }));
    expectTypeOf(factory).parameter(0).toEqualTypeOf<{ n: number }>();
    expectTypeOf(factory({ n: 1 }).count).toEqualTypeOf<() => number>();
    expect(factory({ n: 2 }).count()).toBe(2);
  });

  it('a definition knows its name and module, declares itself with options when called, and creates its checker only when asked', async () => {
    let created = 0;
    const gate = defineChecker({
      name: 'gate',
      module: 'file:///somewhere/gate.js',
      create(options: { command: string }) {
        created++;
        return { check: () => ({ completed: true, feedback: options.command }), runs: () => created };
      },
    });
    expectTypeOf(gate).parameters.toEqualTypeOf<[options: { command: string }]>();
    expect(isCheckerDefinition(gate)).toBe(true);
    expect([gate.checkerName, gate.module]).toEqual(['gate', 'file:///somewhere/gate.js']);
    expect(gate({ command: 'make' })).toEqual({ use: 'file:///somewhere/gate.js', command: 'make' });
    expect(created).toBe(0);
    const made = await gate.create({ command: 'make' });
    expectTypeOf(made.runs).toEqualTypeOf<() => number>();
    expect(made.runs()).toBe(1);
    // Without a module the declaration names the checker, for a module listed in `plugins`.
    expect(defineChecker({ name: 'local', create: () => ({ check: () => ({ completed: true, feedback: '' }) }) })()).toEqual({ use: 'local' });
  });

  it('a malformed definition is an error where it is written', () => {
    expect(() => defineChecker({ name: '', create: () => ({ check: () => ({ completed: true, feedback: '' }) }) })).toThrow(
      'defineChecker: "name" must be a non-empty string (got "")',
    );
    expect(() => defineChecker({ name: 'x', create: 5 } as never)).toThrow('defineChecker "x": "create" must be a function');
  });
});

const DEFINED = (marker: string) => `
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import { defineChecker } from 'ccc-supervisor';
export default defineChecker({
  name: 'defined',
  module: import.meta.url,
  create(options: { word: string }) {
    if (typeof options.word !== 'string') throw new Error('option "word" is required');
    fs.appendFileSync(${JSON.stringify(marker)}, options.word + '\\n');
    return {
      check(ctx) {
        ctx.reportUsage?.({ output_tokens: 3, cost_usd: 0.5 });
        ctx.reportCost?.(0.25);
        // A plugin's own thread is started with the plugin's specifier as its workerData.
        return { completed: false, feedback: options.word + ' in ' + (typeof workerData?.specifier === 'string' ? 'its own thread' : 'another thread') };
      },
    };
  },
});
`;

describe('definitions in a session', () => {
  it('listed in plugins, a definition is named without create being called, then used by name with its options', async () => {
    const marker = path.join(t.root, 'created');
    write('defined.ts', DEFINED(marker));
    const { config } = await loadConfig({
      cwd: t.project,
      env: t.env,
      flags: { plugins: ['./defined.ts'], supervisor: { checkers: [{ use: 'defined', word: 'hello' }] } },
    });
    const pipeline = await buildPipeline({ config, sources: {}, cwd: t.project });
    try {
      // create ran once, with the declaration's options: never with {} to learn the name.
      expect(fs.readFileSync(marker, 'utf8')).toBe('hello\n');
      expect(pipeline.map((e) => e.checker.name)).toEqual(['defined']);
      const usage: Usage[] = [];
      const outcome = await runPipeline(pipeline, checkContext(t.project, { reportUsage: (u) => usage.push(u as Usage) }));
      expect(outcome.verdict).toEqual({ completed: false, feedback: 'hello in its own thread' });
      // Any of the fields; the rest count as 0. The deprecated reportCost is a usage report of its cost.
      expect(usage).toEqual([
        { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 3, cost_usd: 0.5 },
        { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0, cost_usd: 0.25 },
      ]);
    } finally {
      for (const entry of pipeline) await (entry.checker as Checker & { dispose?(): Promise<void> }).dispose?.();
    }
  });

  it('called in ccc.config.ts, a definition and a bundled plugin run in their own threads with the options given', async () => {
    const marker = path.join(t.root, 'created');
    write('defined.ts', DEFINED(marker));
    write(
      'ccc.config.ts',
      `import { defineConfig } from 'ccc-supervisor';
import testGate from 'ccc-supervisor/plugins/test-gate';
import defined from './defined.ts';
export default defineConfig({ supervisor: { checkers: [defined({ word: 'configured' }), testGate({ command: 'echo FAIL-MARK; exit 3', timeout_seconds: 20 }), 'rule'] } });
`,
    );
    const { config } = await loadConfig({ cwd: t.project, env: t.env });
    const [first, second] = config.supervisor.checkers as Array<{ use: string }>;
    expect(first).toEqual({ use: expect.stringMatching(/^file:.*\/defined\.ts$/), word: 'configured' });
    expect(second).toEqual({ use: expect.stringMatching(/^file:.*\/dist\/plugins\/test-gate\.js$/), command: 'echo FAIL-MARK; exit 3', timeout_seconds: 20 });
    // Importing the plugins into the config ran none of their create.
    expect(fs.existsSync(marker)).toBe(false);
    config.supervisor.checkers = config.supervisor.checkers.slice(0, 2);
    const pipeline = await buildPipeline({ config, sources: {}, cwd: t.project });
    try {
      expect(pipeline.map((e) => [e.checker.name, e.timeoutSeconds])).toEqual([
        ['defined', config.supervisor.timeout_seconds],
        ['test-gate', 20],
      ]);
      expect((await pipeline[0]!.checker.check(checkContext(t.project), never)).feedback).toBe('configured in its own thread');
      const gate = await pipeline[1]!.checker.check(checkContext(t.project, { timeoutSeconds: 20 }), never);
      expect(gate).toMatchObject({ completed: false, feedback: expect.stringContaining('`echo FAIL-MARK; exit 3` exited with code 3') });
    } finally {
      for (const entry of pipeline) await (entry.checker as Checker & { dispose?(): Promise<void> }).dispose?.();
    }
  });

  it('a definition not called in ccc.config.ts is a configuration error that says to call it', async () => {
    write('ccc.config.ts', `import testGate from 'ccc-supervisor/plugins/test-gate';\nexport default { supervisor: { checkers: [testGate] } };\n`);
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('supervisor.checkers[0]'),
    });
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(
      'what a defineChecker definition called with its options returns, e.g. testGate({ command: "npm test" })',
    );
  });
});
