import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/checkers/registry.js';
import { defaultConfig } from '../../src/config/defaults.js';
import type { CheckerDeclaration } from '../../src/config/types.js';
import { checkContext } from './check-context.js';

const pluginsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../plugins');
let project: string;
beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-pipeline-')));
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

function build(checkers: CheckerDeclaration[], plugins: string[] = [], checkersFrom?: string) {
  const config = defaultConfig();
  config.supervisor.checkers = checkers;
  config.supervisor.timeout_seconds = 77;
  config.plugins = plugins;
  return buildPipeline({ config, sources: {}, cwd: project, ...(checkersFrom ? { checkersFrom } : {}) });
}

describe('building the pipeline from config', () => {
  it('rule and hook are built-ins; each checker gets its own timeout_seconds or the supervisor default', async () => {
    const entries = await build([{ use: 'rule', commands: ['true'], timeout_seconds: 5 }, { use: 'hook', command: 'echo {}' }, 'claude']);
    expect(entries.map((e) => [e.checker.name, e.timeoutSeconds])).toEqual([
      ['rule', 5],
      ['hook', 77],
      ['claude', 77],
    ]);
  });

  it('a plugin by path, with options, and the example plugins by path, with no build step', async () => {
    fs.writeFileSync(
      path.join(project, 'mine.ts'),
      `export default (o: { n: number }) => ({ name: 'mine-' + o.n, check: () => ({ completed: true, feedback: '' }) });`,
    );
    const entries = await build([
      { use: './mine.ts', n: 4 },
      path.join(pluginsDir, 'no-leftovers.ts'),
      { use: path.join(pluginsDir, 'test-gate.ts'), command: 'make check' },
    ]);
    expect(entries.map((e) => e.checker.name)).toEqual(['mine-4', 'no-leftovers', 'test-gate']);
  });

  it('the bundled plugins by package subpath, as ccc init suggests: ccc-supervisor/plugins/…', async () => {
    const entries = await build([{ use: 'ccc-supervisor/plugins/test-gate', command: 'make check' }, 'ccc-supervisor/plugins/no-leftovers']);
    expect(entries.map((e) => e.checker.name)).toEqual(['test-gate', 'no-leftovers']);
  });

  it('plugins listed in `plugins` are used by their checker name, each declaration with its own options', async () => {
    fs.writeFileSync(
      path.join(project, 'says.ts'),
      `export default (o: { word?: string }) => ({ name: 'says', check: () => ({ completed: false, feedback: o.word ?? 'default' }) });`,
    );
    const entries = await build([{ use: 'says', word: 'first' }, 'says'], ['./says.ts']);
    const ctx = checkContext(project);
    const signal = new AbortController().signal;
    expect(await entries[0]!.checker.check(ctx, signal)).toEqual({ completed: false, feedback: 'first' });
    expect(await entries[1]!.checker.check(ctx, signal)).toEqual({ completed: false, feedback: 'default' });
  });

  it('clear errors when the pipeline is built: unknown names, name clashes, bad built-in options', async () => {
    fs.writeFileSync(path.join(project, 'rule.ts'), `export default { name: 'rule', check: () => ({ completed: true, feedback: '' }) };`);
    await expect(build(['claude'], ['./rule.ts'])).rejects.toThrow(/Checker plugin "\.\/rule\.ts" is named "rule", like the built-in checker/);
    await expect(build(['no such checker'])).rejects.toThrow(/Unknown checker "no such checker" in supervisor.checkers. Use one of: claude, codex, rule, hook/);
    await expect(build(['ccc-missing-plugin'])).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringContaining('npm install ccc-missing-plugin'),
    });
    await expect(build([{ use: 'rule', must_not_match: ['[a-'] }])).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringContaining('"must_not_match[0]"'),
    });
    await expect(build([{ use: 'hook' }])).rejects.toThrow(/Invalid option "command" of the hook checker/);
  });

  it('a name one or two edits from a checker it knows, which no installed package answers to, gets "did you mean"', async () => {
    for (const [typo, meant] of [
      ['claud', 'claude'],
      ['Claude', 'claude'],
      ['rul', 'rule'],
      ['rules', 'rule'],
      ['hooks', 'hook'],
    ]) {
      await expect(build([typo!], [], 'the project file')).rejects.toMatchObject({
        code: 'PLUGIN_INVALID',
        message: expect.stringMatching(
          new RegExp(
            `^Unknown checker "${typo}" in supervisor.checkers \\(from the project file\\)\\. Did you mean "${meant}"\\? Use one of: claude, codex, rule, hook`,
          ),
        ),
        data: { checker: typo, suggestion: meant },
      });
    }
    // In its object form too, and a plugin's name from `plugins` is among the names it knows.
    await expect(build([{ use: 'rul', commands: ['true'] }])).rejects.toThrow(/Did you mean "rule"\?/);
    await expect(build(['test-gat'], [path.join(pluginsDir, 'test-gate.ts')])).rejects.toThrow(/Did you mean "test-gate"\?/);
    // A name far from every checker is not guessed at; a package of a near name that is installed is used as asked.
    await expect(build(['ccc-missing-plugin'])).rejects.toThrow(/^Checker plugin "ccc-missing-plugin" is neither a built-in checker nor a package/);
    fs.mkdirSync(path.join(project, 'node_modules', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(project, 'node_modules', 'hooks', 'package.json'), JSON.stringify({ name: 'hooks', main: 'index.js' }));
    fs.writeFileSync(
      path.join(project, 'node_modules', 'hooks', 'index.js'),
      "module.exports = { name: 'hooks', check: () => ({ completed: true, feedback: '' }) };\n",
    );
    const [entry] = await build(['hooks']);
    expect(entry!.checker.name).toBe('hooks');
    await (entry!.checker as { dispose?(): Promise<void> }).dispose?.();
  });
});
