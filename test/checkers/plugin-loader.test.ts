import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginChecker } from '../../src/checkers/plugin-loader.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { checkContext } from './check-context.js';

let project: string;
beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-plugin-')));
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const write = (relative: string, text: string) => {
  const file = path.join(project, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};
const context = () => ({ config: defaultConfig(), sources: {}, cwd: project });
const load = (specifier: string, options: Record<string, unknown> = {}) => loadPluginChecker(specifier, options, context());
const signal = new AbortController().signal;

describe('loading checker plugins', () => {
  it('loads a TypeScript factory by relative path without a build step and passes it the options', async () => {
    write(
      'checkers/word.ts',
      `import { defineChecker, type CheckContext } from 'ccc-supervisor';
       interface WordOptions { word: string }
       export default defineChecker((options: WordOptions) => ({
         name: 'word',
         check(ctx: CheckContext) {
           const ok: boolean = ctx.lastAssistantMessage.includes(options.word);
           return { completed: ok, feedback: ok ? 'found ' + options.word : 'say ' + options.word };
         },
       }));`,
    );
    const checker = await load('./checkers/word.ts', { word: 'shipped', timeout_seconds: 30 });
    expect(checker.name).toBe('word');
    expect(await checker.check(checkContext(project, { lastAssistantMessage: 'not yet' }), signal)).toEqual({ completed: false, feedback: 'say shipped' });
    expect(await checker.check(checkContext(project, { lastAssistantMessage: 'shipped it' }), signal)).toEqual({ completed: true, feedback: 'found shipped' });
  });

  it('the factory gets only its own options: timeout_seconds belongs to the pipeline', async () => {
    write('echo.mjs', `export default (options) => ({ name: 'echo', check: () => ({ completed: true, feedback: JSON.stringify(options) }) });`);
    const checker = await load('echo.mjs', { a: 1, timeout_seconds: 9 });
    expect(await checker.check(checkContext(project), signal)).toEqual({ completed: true, feedback: '{"a":1}' });
  });

  it('loads a plain checker object, and refuses options it cannot take', async () => {
    write('plain.ts', `export default { name: 'plain', check: () => ({ completed: true, feedback: 'fine' }) };`);
    expect((await load('./plain.ts')).name).toBe('plain');
    expect((await load('./plain.ts', { timeout_seconds: 5 })).name).toBe('plain');
    await expect(load('./plain.ts', { strict: true })).rejects.toThrow(
      /Checker plugin "\.\/plain\.ts" exports a checker object, which takes no options, but the config gives strict/,
    );
  });

  it('loads a plugin package by name, resolved from the project directory', async () => {
    write('node_modules/ccc-checker-demo/package.json', JSON.stringify({ name: 'ccc-checker-demo', type: 'module', exports: './index.js' }));
    write('node_modules/ccc-checker-demo/index.js', `export default { name: 'demo', check: () => ({ completed: false, feedback: 'from a package' }) };`);
    const checker = await load('ccc-checker-demo');
    expect(await checker.check(checkContext(project), signal)).toEqual({ completed: false, feedback: 'from a package' });
  });

  it('the bundled plugins load as ccc-supervisor/plugins/… from a project that has no ccc installed (global install)', async () => {
    const gate = await load('ccc-supervisor/plugins/test-gate', { command: 'true' });
    expect(gate.name).toBe('test-gate');
    const leftovers = await load('ccc-supervisor/plugins/no-leftovers');
    expect(leftovers.name).toBe('no-leftovers');
    expect(fs.existsSync(path.join(project, 'node_modules'))).toBe(false);
  });

  it('every wrong plugin is a PLUGIN_INVALID error naming the module and what is wrong', async () => {
    write('no-check.ts', `export default { name: 'x', run: () => 1 };`);
    write('no-name.ts', `export default { check: () => ({ completed: true, feedback: '' }), onFrame: 3 };`);
    write('named-only.ts', `export const checker = { name: 'x', check() {} };`);
    write('broken.ts', `export default {{ name: ;`);
    write('throws.ts', `export default () => { throw new Error('needs an API token'); };`);
    write('number.ts', `export default 42;`);
    const cases: Array<[string, RegExp]> = [
      ['./no-check.ts', /"\.\/no-check\.ts" its default export is not a checker: "check" must be a function \(got undefined\)/],
      ['./no-name.ts', /"\.\/no-name\.ts" .*"name" must be a non-empty string.*"onFrame" must be a function when present \(got number 3\)/],
      ['./named-only.ts', /"\.\/named-only\.ts" has no default export \(it exports only checker\)/],
      ['./broken.ts', /"\.\/broken\.ts" failed to load \(.*broken\.ts\)/],
      ['./throws.ts', /"\.\/throws\.ts" factory threw: needs an API token/],
      ['./number.ts', /"\.\/number\.ts" its default export is number 42; expected a checker/],
      ['./missing.ts', /"\.\/missing\.ts" does not exist \(looked for .*missing\.ts\)/],
      [
        'not-installed-checker',
        /"not-installed-checker" is neither a built-in checker nor a package that can be found from .*npm install not-installed-checker/,
      ],
    ];
    for (const [specifier, message] of cases) {
      await expect(load(specifier), specifier).rejects.toMatchObject({
        code: 'PLUGIN_INVALID',
        message: expect.stringMatching(message),
        data: { plugin: specifier },
      });
    }
  });
});
