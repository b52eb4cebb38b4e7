/** The detection table: one project per ecosystem, the command, the runner and the file that made ccc detect it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTests, scriptRunner } from '../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../src/init/project-files.js';
import { detectTestCommand, detectTestCommands } from '../../src/init/test-command.js';

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'p', scripts, ...extra });
const detect = (files: Record<string, string>) =>
  detectTests(memoryProjectFiles(files)).map(({ ecosystem, command, marker, runner }) => ({ ecosystem, command, marker, runner }));

describe('test command detection', () => {
  it.each([
    ['npm', { 'package.json': pkg({ test: 'node --test' }) }, { ecosystem: 'npm', command: 'npm test', marker: 'package.json', runner: 'node-test' }],
    [
      'npm lockfile',
      { 'package.json': pkg({ test: 'jest' }), 'package-lock.json': '{}' },
      { ecosystem: 'npm', command: 'npm test', marker: 'package-lock.json', runner: 'jest' },
    ],
    [
      'pnpm',
      { 'package.json': pkg({ test: 'vitest run' }), 'pnpm-lock.yaml': '' },
      { ecosystem: 'pnpm', command: 'pnpm test', marker: 'pnpm-lock.yaml', runner: 'vitest' },
    ],
    ['yarn', { 'package.json': pkg({ test: 'mocha' }), 'yarn.lock': '' }, { ecosystem: 'yarn', command: 'yarn test', marker: 'yarn.lock', runner: 'mocha' }],
    [
      'bun',
      { 'package.json': pkg({ test: 'bun test' }), 'bun.lockb': '' },
      { ecosystem: 'bun', command: 'bun run test', marker: 'bun.lockb', runner: 'opaque' },
    ],
    [
      'packageManager',
      { 'package.json': pkg({ test: 'jest' }, { packageManager: 'pnpm@9.1.0' }), 'yarn.lock': '' },
      { ecosystem: 'pnpm', command: 'pnpm test', marker: 'package.json', runner: 'jest' },
    ],
    ['deno', { 'deno.json': '{}' }, { ecosystem: 'deno', command: 'deno test', marker: 'deno.json', runner: 'deno' }],
    ['pytest.ini', { 'pytest.ini': '[pytest]\n' }, { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'pytest.ini', runner: 'pytest' }],
    [
      'pyproject',
      { 'pyproject.toml': '[tool.pytest.ini_options]\n' },
      { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'pyproject.toml', runner: 'pytest' },
    ],
    [
      'setup.cfg',
      { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\naddopts = -q\n' },
      { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'setup.cfg', runner: 'pytest' },
    ],
    ['tox.ini', { 'tox.ini': '[tox]\n[pytest]\n' }, { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'tox.ini', runner: 'pytest' }],
    ['conftest.py', { 'conftest.py': '' }, { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'conftest.py', runner: 'pytest' }],
    [
      'a tests folder',
      { 'tests/test_calc.py': 'def test_add(): pass\n' },
      { ecosystem: 'pytest', command: 'python3 -m pytest', marker: 'tests', runner: 'pytest' },
    ],
    [
      'uv',
      { 'pyproject.toml': '[dependency-groups]\ndev = ["pytest"]\n', 'uv.lock': '' },
      { ecosystem: 'pytest', command: 'uv run pytest', marker: 'pyproject.toml', runner: 'pytest' },
    ],
    ['poetry', { 'pytest.ini': '', 'poetry.lock': '' }, { ecosystem: 'pytest', command: 'poetry run pytest', marker: 'pytest.ini', runner: 'pytest' }],
    ['go', { 'go.mod': 'module x\n' }, { ecosystem: 'go', command: 'go test ./...', marker: 'go.mod', runner: 'go' }],
    ['cargo', { 'Cargo.toml': '[package]\n' }, { ecosystem: 'cargo', command: 'cargo test', marker: 'Cargo.toml', runner: 'cargo' }],
    ['maven', { 'pom.xml': '<project/>' }, { ecosystem: 'maven', command: 'mvn test', marker: 'pom.xml', runner: 'maven' }],
    ['maven wrapper', { 'pom.xml': '<project/>', mvnw: '' }, { ecosystem: 'maven', command: './mvnw test', marker: 'pom.xml', runner: 'maven' }],
    ['gradle', { 'build.gradle.kts': '' }, { ecosystem: 'gradle', command: 'gradle test', marker: 'build.gradle.kts', runner: 'gradle' }],
    ['gradle wrapper', { 'settings.gradle': '', gradlew: '' }, { ecosystem: 'gradle', command: './gradlew test', marker: 'settings.gradle', runner: 'gradle' }],
    ['dotnet', { 'App.Tests.csproj': '<Project/>' }, { ecosystem: 'dotnet', command: 'dotnet test', marker: 'App.Tests.csproj', runner: 'dotnet' }],
    ['mix', { 'mix.exs': '' }, { ecosystem: 'mix', command: 'mix test', marker: 'mix.exs', runner: 'mix' }],
    ['rspec', { Gemfile: '', 'spec/calc_spec.rb': '' }, { ecosystem: 'rspec', command: 'bundle exec rspec', marker: 'spec', runner: 'rspec' }],
    ['rake', { Gemfile: '', Rakefile: '' }, { ecosystem: 'rake', command: 'bundle exec rake test', marker: 'Rakefile', runner: 'opaque' }],
    [
      'composer script',
      { 'composer.json': JSON.stringify({ scripts: { test: 'phpunit' } }) },
      { ecosystem: 'phpunit', command: 'composer test', marker: 'composer.json', runner: 'phpunit' },
    ],
    [
      'phpunit',
      { 'composer.json': '{}', 'phpunit.xml.dist': '' },
      { ecosystem: 'phpunit', command: 'vendor/bin/phpunit', marker: 'composer.json', runner: 'phpunit' },
    ],
    [
      'make test',
      { Makefile: 'CC := gcc\n.PHONY: test\ntest: build\n\t./run-tests\n' },
      { ecosystem: 'make', command: 'make test', marker: 'Makefile', runner: 'make' },
    ],
    ['make check', { GNUmakefile: 'all:\n\techo\ncheck:\n\t./check\n' }, { ecosystem: 'make', command: 'make check', marker: 'GNUmakefile', runner: 'make' }],
    [
      'just',
      { justfile: 'build:\n  cargo build\ntest *args:\n  cargo test {{args}}\n' },
      { ecosystem: 'just', command: 'just test', marker: 'justfile', runner: 'opaque' },
    ],
  ])('%s', (_name, files, expected) => {
    expect(detect(files)).toEqual([expected]);
  });

  it('needs an unambiguous sign: no placeholder npm script, no test target, no pytest mention, no Gemfile', () => {
    for (const files of <Array<Record<string, string>>>[
      { 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) },
      { 'package.json': pkg({ build: 'tsc' }) },
      { 'package.json': 'not json' },
      { Makefile: 'TEST := 1\ntest-data:\n\techo\nall:\n\techo\n' },
      { justfile: 'testing := "x"\n' },
      { 'pyproject.toml': '[project]\nname = "x"\n' },
      { 'setup.cfg': '[metadata]\n' },
      { 'tests/helpers.py': '' },
      { spec: '', Rakefile: '' },
      { 'composer.json': '{}' },
      { 'README.md': '# x' },
    ]) {
      expect([files, detect(files)]).toEqual([files, []]);
    }
  });

  it('finds every ecosystem of a polyglot repository, in table order', () => {
    const found = detect({
      'package.json': pkg({ test: 'vitest run' }),
      'pnpm-lock.yaml': '',
      'pyproject.toml': '[tool.pytest.ini_options]\n',
      'Cargo.toml': '',
      'go.mod': '',
      Makefile: 'test check:\n\t./all\n',
    });
    expect(found.map((f) => `${f.command} (${f.marker})`)).toEqual([
      'pnpm test (pnpm-lock.yaml)',
      'python3 -m pytest (pyproject.toml)',
      'go test ./... (go.mod)',
      'cargo test (Cargo.toml)',
      'make test (Makefile)',
      'make check (Makefile)',
    ]);
  });

  it("knows an npm script's runner only when the script is one command it knows", () => {
    expect(['node --test', 'node --test test/', 'NODE_ENV=test jest --ci', 'vitest', 'mocha test', 'python3 -m pytest -q', 'pytest'].map(scriptRunner)).toEqual(
      ['node-test', 'node-test', 'jest', 'vitest', 'mocha', 'pytest', 'pytest'],
    );
    expect(['node check.js', 'npm run build && jest', 'jest; rm -rf x', 'jest $(echo)', 'tsc && node --test', 'tap'].map(scriptRunner)).toEqual(
      Array(6).fill('opaque'),
    );
  });

  it('reads a real directory (the starter rule runs the first command found)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-detect-'));
    try {
      expect(detectTestCommand(dir)).toBeUndefined();
      fs.mkdirSync(path.join(dir, 'tests'));
      fs.writeFileSync(path.join(dir, 'tests', 'test_calc.py'), 'def test_add(): pass\n');
      fs.writeFileSync(path.join(dir, 'Makefile'), 'check:\n\tpython3 -m pytest\n');
      expect(detectTestCommands(dir).map((d) => [d.command, d.why])).toEqual([
        ['python3 -m pytest', 'tests/ holds test_*.py files'],
        ['make check', 'Makefile has a `check` target'],
      ]);
      expect(detectTestCommand(dir)).toBe('python3 -m pytest');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
