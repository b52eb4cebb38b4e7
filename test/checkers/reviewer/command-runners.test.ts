/** What a command runs, read from the project's package.json, Makefile and scripts without running them; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveCommand } from '../../../src/checkers/reviewer/command-runners.js';
import { shellSegments } from '../../../src/checkers/reviewer/shell-segments.js';
import { makeRecipes } from '../../../src/checkers/reviewer/make-recipes.js';
import { selectPackages, workspacePackages } from '../../../src/checkers/reviewer/workspace-packages.js';
import { memoryProjectFiles } from '../../../src/init/project-files.js';

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'calc', scripts, ...extra });
const runners = (files: Record<string, string>, command: string) => {
  const found = resolveCommand(memoryProjectFiles(files), command.split(' '));
  return {
    calls: found.calls.filter((c) => c.family !== 'make').map((c) => [c.family, c.args.join(' '), c.given.join(' ')]),
    others: found.others,
    focus: found.focus,
  };
};

describe('the runners a command ends in', () => {
  it("npm, pnpm, yarn and bun scripts, with the arguments the command line gives apart from the script's own", () => {
    const files = { 'package.json': pkg({ test: 'jest --ci', unit: 'vitest run', both: 'npm run unit && node --test', cov: 'c8 --reporter lcov mocha' }) };
    expect(runners(files, 'npm test').calls).toEqual([['jest', '--ci', '']]);
    expect(runners(files, 'npm test -- -t adds').calls).toEqual([['jest', '--ci -t adds', '-t adds']]);
    expect(runners(files, 'npm run unit').calls).toEqual([['vitest', 'run', '']]);
    expect(runners(files, 'npm run both').calls).toEqual([
      ['vitest', 'run', ''],
      ['node-test', '--test', ''],
    ]);
    expect(runners(files, 'npm run cov').calls).toEqual([['mocha', '', '']]);
    expect(runners(files, 'pnpm unit -t x').calls).toEqual([['vitest', 'run -t x', '-t x']]);
    expect(runners(files, 'yarn run unit').calls).toEqual([['vitest', 'run', '']]);
    expect(runners(files, 'bun run test').calls).toEqual([['jest', '--ci', '']]);
    expect(runners(files, 'npm t').calls).toEqual([['jest', '--ci', '']]);
  });

  it('wrappers around a runner: npx, env, cross-env, uv and poetry, python -m, coverage, node_modules/.bin', () => {
    const files = {};
    expect(runners(files, 'npx --no-install jest').calls).toEqual([['jest', '', '']]);
    expect(runners(files, 'CI=1 cross-env NODE_ENV=test vitest run').calls).toEqual([['vitest', 'run', 'run']]);
    expect(runners(files, 'uv run pytest -q').calls).toEqual([['pytest', '-q', '-q']]);
    expect(runners(files, 'python3.12 -X dev -m pytest -k add').calls).toEqual([['pytest', '-k add', '-k add']]);
    expect(runners(files, 'coverage run --source calc -m pytest').calls).toEqual([['pytest', '', '']]);
    expect(runners(files, 'python -m unittest discover').calls).toEqual([['unittest', 'discover', 'discover']]);
    expect(runners(files, './node_modules/.bin/mocha test').calls).toEqual([['mocha', 'test', 'test']]);
    expect(runners(files, 'node --experimental-strip-types --test test/').calls).toEqual([
      ['node-test', '--experimental-strip-types --test test/', '--experimental-strip-types --test test/'],
    ]);
    expect(runners(files, 'cargo +nightly test').calls).toEqual([['cargo', '', '']]);
  });

  it('commands that run no runner ccc knows are named, whatever they print', () => {
    for (const script of ['exit 0', 'echo "5 passed"', 'true', 'tsc --noEmit', 'node run-tests.js', 'python3 check.py', 'bun test', 'echo ok && exit 0']) {
      const found = runners({ 'package.json': pkg({ test: script }) }, 'npm test');
      expect([script, found.calls]).toEqual([script, []]);
      expect(found.others.length).toBeGreaterThan(0);
    }
    expect(runners({ 'package.json': pkg({}) }, 'npm test').others).toEqual(['the script `test` (package.json has none)']);
    // A script that calls itself ends.
    expect(runners({ 'package.json': pkg({ test: 'npm test' }) }, 'npm test').calls).toEqual([]);
  });

  it('make targets: prerequisites first, variables expanded, prefixes dropped, sub-makes followed; `$(shell …)` is not run', () => {
    const makefile = [
      'PYTHON ?= python3',
      'PYTEST := $(PYTHON) -m pytest',
      '.PHONY: test check lint',
      'test: lint unit',
      '\t@echo done',
      'unit:',
      '\t-$(PYTEST) -q tests/',
      'lint: ; @ruff check .',
      'check:',
      '\t$(MAKE) -C sub test',
      'shell:',
      '\t$(shell ./run-tests) --all',
      'ifdef CI',
      'ci:',
      '\tnode --test',
      'endif',
    ].join('\n');
    const files = { Makefile: makefile, 'sub/Makefile': 'test:\n\tgo test ./...\n' };
    expect(makeRecipes(memoryProjectFiles(files), 'Makefile', ['test']).lines).toEqual(['ruff check .', 'python3 -m pytest -q tests/', 'echo done']);
    expect(runners(files, 'make test').calls).toEqual([['pytest', '-q tests/', '']]);
    expect(runners(files, 'make -k test').calls).toEqual([['pytest', '-q tests/', '']]);
    expect(runners(files, 'make check').calls).toEqual([['go', './...', '']]);
    expect(runners(files, 'make shell').calls).toEqual([]);
    expect(runners(files, 'make ci').calls).toEqual([['node-test', '--test', '']]);
    expect(runners(files, 'make nothing').others).toEqual(['make nothing (no such target)']);
    expect(runners({ 'include.mk': 'test:\n\tcargo test\n', Makefile: 'include include.mk\n' }, 'make test').calls).toEqual([['cargo', '', '']]);
  });

  it('shell script files are read; other interpreters are programs', () => {
    const files = {
      'package.json': pkg({ test: 'bash scripts/test.sh', check: './scripts/check.js' }),
      'scripts/test.sh': '#!/usr/bin/env bash\nset -euo pipefail\ncd packages/a\nnpx jest "$@"\n',
      'scripts/check.js': '#!/usr/bin/env node\nconsole.log("Tests: 5 passed, 5 total")\n',
    };
    expect(runners(files, 'npm test').calls).toEqual([['jest', '', '']]);
    expect(runners(files, 'npm run check')).toMatchObject({ calls: [], others: ['./scripts/check.js'] });
  });

  it('workspace forms: every package, or some of them, said as focus', () => {
    const files = {
      'package.json': JSON.stringify({ name: 'mono', workspaces: ['packages/*', '!packages/skip'], scripts: { test: 'npm test --workspaces' } }),
      'packages/a/package.json': JSON.stringify({ name: '@m/a', scripts: { test: 'node --test' } }),
      'packages/b/package.json': JSON.stringify({ name: '@m/b', scripts: { test: 'vitest run' } }),
      'packages/c/package.json': JSON.stringify({ name: '@m/c', scripts: {} }),
      'packages/skip/package.json': JSON.stringify({ name: '@m/skip', scripts: { test: 'exit 0' } }),
    };
    expect(runners(files, 'npm test')).toMatchObject({
      calls: [
        ['node-test', '--test', ''],
        ['vitest', 'run', ''],
      ],
      focus: [],
    });
    expect(runners(files, 'npm test -w packages/a')).toMatchObject({ calls: [['node-test', '--test', '']], focus: ['one workspace of 2 (packages/a)'] });
    expect(runners(files, 'npm test -w @m/a -w @m/b')).toMatchObject({ focus: [] });
    expect(runners(files, 'pnpm --filter @m/* test').focus).toEqual([]);
    expect(runners(files, 'yarn workspace @m/b test')).toMatchObject({ calls: [['vitest', 'run', '']], focus: ['one workspace of 2 (packages/b)'] });
    expect(runners(files, 'npx turbo run test --filter @m/a').focus).toEqual(['one workspace of 2 (packages/a)']);
    expect(runners(files, 'nx run-many -t test').focus).toEqual([]);
    const read = memoryProjectFiles(files);
    expect(workspacePackages(read).map((p) => p.dir)).toEqual(['packages/a', 'packages/b', 'packages/c']);
    expect(selectPackages(workspacePackages(read), './packages/b').map((p) => p.name)).toEqual(['@m/b']);
    expect(selectPackages(workspacePackages(read), '{packages/a}...').map((p) => p.name)).toEqual(['@m/a']);
    expect(
      workspacePackages(memoryProjectFiles({ 'pnpm-workspace.yaml': "packages:\n  - 'libs/**'\n", 'libs/x/y/package.json': '{"name":"y"}' })).map((p) => p.dir),
    ).toEqual(['libs/x/y']);
  });

  it('shell text split into simple commands, redirections dropped', () => {
    expect(shellSegments('FOO=1 npm run x > out.txt 2>&1; (cd a && jest) | tee log')).toEqual([
      ['FOO=1', 'npm', 'run', 'x'],
      ['cd', 'a'],
      ['jest'],
      ['tee', 'log'],
    ]);
    expect(shellSegments('echo "unclosed')).toEqual([['echo', 'unclosed']]);
  });

  it('fuzzed: never throws and never loops, whatever the scripts and Makefile say', () => {
    const word = fc.constantFrom(
      'npm',
      'test',
      'run',
      'make',
      'jest',
      '-w',
      'a',
      '&&',
      '|',
      ';',
      '$(MAKE)',
      'cd',
      '..',
      'sh',
      '-c',
      '"',
      "'",
      'x.sh',
      '$(X)',
      'pytest',
      '--',
      '-k',
    );
    const text = fc.array(word, { maxLength: 10 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('test', 'run', 'a', 'x'), text),
        fc.array(text, { maxLength: 6 }),
        text,
        text,
        (scripts, lines, shell, command) => {
          const files = {
            'package.json': JSON.stringify({ scripts, workspaces: ['*'] }),
            Makefile: lines.map((l, i) => (i % 2 ? `\t${l}` : `test x: ${l}`)).join('\n'),
            'x.sh': shell,
            'a/package.json': JSON.stringify({ name: 'a', scripts }),
          };
          const found = resolveCommand(memoryProjectFiles(files), command.split(' '));
          expect(found.calls.length).toBeLessThan(10_000);
        },
      ),
      { numRuns: 300 },
    );
  });
});
