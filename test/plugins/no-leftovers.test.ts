import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginChecker } from '../../src/checkers/plugin-loader.js';
import type { Checker } from '../../src/checkers/types.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { checkContext } from '../checkers/check-context.js';

const pluginPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'no-leftovers.ts');
let project: string;
let checker: Checker;
beforeAll(async () => {
  checker = await loadPluginChecker(pluginPath, {}, { config: defaultConfig(), sources: {}, cwd: os.tmpdir() });
});
beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-leftovers-')));
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
  fs.writeFileSync(path.join(project, name), text);
};
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: project, stdio: 'ignore' });
const check = () => checker.check(checkContext(project), new AbortController().signal);

// The fixture's markers are put together here, so that this file holds no skipped or focused test
// itself: a scanner for leftovers (this plugin among them, run on ccc) would list it.
const itSkip = ['it', 'skip'].join('.');
const testOnly = ['test', 'only'].join('.');

describe('the no-leftovers plugin', () => {
  it('lists file:line of TODO/FIXME and skipped or focused tests added by the agent, not the ones already committed', async () => {
    git('init', '-q');
    write('src/app.ts', "export function run() {\n  // TODO: an old note, not the agent's\n  return 1;\n}\n");
    write('src/model.py', 'model.fit(x, y)\n');
    git('add', '.');
    git('commit', '-q', '-m', 'start');
    write('src/app.ts', "export function run() {\n  // TODO: an old note, not the agent's\n  return 2; // FIXME handle errors\n}\n");
    write('src/model.py', 'model.fit(x, y)\nmodel.fit(a, b)\n');
    write('test/app.test.ts', `import { it } from 'vitest';\n${itSkip}('runs', () => {});\n${testOnly}('focus', () => {});\nxit('old', () => {});\n`);
    write('test_app.py', 'import pytest\n@pytest.mark.skip\ndef test_x(): pass\n');
    write('app_test.go', 'func TestX(t *testing.T) {\n\tt.Skip("later")\n}\n');
    const verdict = await check();
    expect(verdict.completed).toBe(false);
    const listed = verdict.feedback.split('\n').filter((l) => l.startsWith('- '));
    expect(listed).toEqual([
      '- src/app.ts:3: FIXME: return 2; // FIXME handle errors',
      '- app_test.go:2: skipped test: t.Skip("later")',
      `- test/app.test.ts:2: skipped test: ${itSkip}('runs', () => {});`,
      `- test/app.test.ts:3: focused test: ${testOnly}('focus', () => {});`,
      "- test/app.test.ts:4: skipped test: xit('old', () => {});",
      '- test_app.py:2: skipped test: @pytest.mark.skip',
    ]);
    expect(verdict.feedback).toMatch(/^Your changes leave unfinished work behind \(6\):/);
  });

  it('passes when the changes are clean, also before the first commit', async () => {
    git('init', '-q');
    write('a.ts', 'export const a = 1;\n');
    git('add', 'a.ts');
    expect(await check()).toEqual({ completed: true, feedback: 'no TODO, FIXME, skipped or focused test in the changed files' });
    write('b.ts', '// TODO later\n');
    expect((await check()).feedback).toContain('- b.ts:1: TODO: // TODO later');
  });

  it('outside a git repository: says it cannot tell what changed, and passes', async () => {
    write('a.ts', '// TODO everywhere\n');
    const verdict = await check();
    expect(verdict).toEqual({
      completed: true,
      feedback: `${project} is not a git repository, so no-leftovers cannot tell which files changed; passing without a check.`,
    });
  });
});
