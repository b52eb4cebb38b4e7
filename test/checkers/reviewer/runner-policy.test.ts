/**
 * Focused and verbose runs, per ecosystem of the detection table: what a reviewer may give each
 * runner (tests, filters, verbosity, paths inside the project) and what is refused with its reason
 * (writers, paths out of the project, redirects, unknown options).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decideToolUse, reviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';
import { detectTests } from '../../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../../src/init/project-files.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-runner-policy-')));
const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-outside-')));
for (const file of ['tests/test_calc.py', 'test/answer.test.js', 'src/lib.rs', 'spec/calc_spec.rb', 'pkg/calc/calc_test.go']) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), '');
}
fs.symlinkSync(outside, path.join(root, 'linked'));
fs.writeFileSync(path.join(outside, 'test_evil.py'), '');
fs.symlinkSync(path.join(outside, 'test_evil.py'), path.join(root, 'tests', 'test_link.py'));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const policyFor = (files: Record<string, string>) => reviewerPolicy({ root, tests: detectTests(memoryProjectFiles(files)), ruleCommands: [], allow: [] });
const judge = (policy: ReturnType<typeof policyFor>, command: string, cwd = root) => decideToolUse(policy, 'Bash', { command }, cwd);
const pkg = (test: string, lock?: string) => ({ 'package.json': JSON.stringify({ scripts: { test } }), ...(lock ? { [lock]: '' } : {}) });

interface Case {
  files: Record<string, string>;
  allowed: string[];
  /** Command → a part of the reason it is refused. */
  refused: Record<string, string>;
}

const CASES: Record<string, Case> = {
  'npm + node --test': {
    files: pkg('node --test'),
    allowed: [
      'npm test',
      'npm test -- test/answer.test.js',
      'npm run test -- --test-name-pattern=answer',
      'npm t -- --test-reporter=spec',
      'npm test --silent -- test/',
      'node --test test/answer.test.js',
      'node --test --test-name-pattern "the answer" test/',
      'node --test test/*.test.js',
      'CI=true npm test -- test/answer.test.js 2>&1 | tail -n 40',
    ],
    refused: {
      'npm test test/answer.test.js': 'go after `--`',
      'npm test -- --test-update-snapshots': 'updates snapshots',
      'npm test -- --test-reporter-destination=out.txt': 'may only be stdout, stderr',
      'node --test --import ./evil.mjs': 'runs another program',
      'node --test ../elsewhere.test.js': 'outside the project',
      'node --test /etc/passwd': 'outside the project',
      'node --test linked/x.test.js': 'through a symlink',
      'node check.js': 'not a verification command',
      'node --test test/ > out.txt': '`>`',
      'npm test -- --watch': 'never ends',
    },
  },
  'pnpm + vitest': {
    files: pkg('vitest run', 'pnpm-lock.yaml'),
    allowed: [
      'pnpm test',
      'pnpm test -- -t add',
      'pnpm test src/',
      'npx vitest run test/answer.test.js -t "adds two"',
      'npx vitest run --reporter=verbose --bail 1',
      'npx vitest list',
    ],
    refused: {
      'pnpm test -u': 'updates snapshots',
      'npx vitest run --coverage': 'coverage',
      'npx vitest run --outputFile=r.json': 'writes a file',
      'npx vitest --reporter ./my-reporter.js': 'may only be',
      'npx vitest -c other.config.ts': 'config',
      // vitest reads its first positional as its own command, never as a path filter.
      'npx vitest watch': 'never ends',
      'npx vitest -t add dev': 'never ends',
      'npx vitest init browser': 'writes a file',
      'npx vitest bench': 'benchmarks',
    },
  },
  'yarn + jest': {
    files: pkg('jest', 'yarn.lock'),
    allowed: ['yarn test -t "adds"', 'yarn test --ci test/answer.test.js', 'npx jest --testNamePattern=add --verbose', 'npx jest -i --bail'],
    refused: {
      'yarn test -u': 'updates snapshots',
      'npx jest --updateSnapshot': 'updates snapshots',
      'npx jest -t -u': 'may not start with `-`',
      'npx jest --coverage': 'coverage',
      'npx jest --reporters=./r.js': 'runs another program',
      'npx jest --outputFile out.json --json': 'writes a file',
    },
  },
  'bun + mocha': {
    files: pkg('mocha', 'bun.lock'),
    allowed: ['bun run test --grep add', 'npx mocha -g add test/answer.test.js', 'npx mocha --reporter dot'],
    refused: {
      'npx mocha --require ./hook.js': 'runs another program',
      'npx mocha --reporter ./mine.js': 'may only be',
      'npx mocha --reporter-option output=x': 'writes a file',
    },
  },
  'npm + an unknown script': {
    files: pkg('node check.js'),
    allowed: ['npm test', 'npm run test'],
    refused: { 'npm test -- --grep x': 'not an option of this command', 'npm test -- test/x.js': 'takes no other target or argument' },
  },
  pytest: {
    files: { 'pytest.ini': '' },
    allowed: [
      'python3 -m pytest',
      'python3 -m pytest -q',
      'pytest tests/test_calc.py::test_add',
      "pytest 'tests/test_calc.py::test_add[1-2]' -vv",
      'pytest -k add',
      'pytest -kadd -x',
      'pytest -xvs tests/',
      'python -m pytest --tb=short -rA --maxfail=1',
      'pytest -p no:cacheprovider --deselect tests/test_calc.py::test_slow',
      'pytest tests/test_c*.py',
    ],
    refused: {
      'pytest -o cache_dir=/tmp/x': 'overrides the configuration',
      'pytest -xo x=y': 'overrides the configuration',
      'pytest --junitxml=report.xml': 'writes a file',
      'pytest --cov=src': 'coverage',
      'pytest --snapshot-update': 'updates snapshots',
      'pytest -p myplugin': 'may only be no:cacheprovider',
      'pytest ../other/tests': 'outside the project',
      'pytest tests/test_link.py': 'through a symlink',
      'pytest tests/test_l*.py': 'a symlink out of the project',
      'pytest linked/test_evil.py::test_x': 'through a symlink',
      'pytest ~/tests': 'outside the project',
      'pytest {tests,/etc}': 'braces',
      'pytest --pdb': 'debugger',
      'pytest -k add > out.txt': '`>`',
      'pytest --deselect ../x.py::t': 'outside the project',
    },
  },
  'uv + pytest': {
    files: { 'pyproject.toml': '[tool.pytest.ini_options]\n', 'uv.lock': '' },
    allowed: ['uv run pytest -k add', 'uv run python -m pytest tests/'],
    refused: { 'uv run ruff check --fix': 'not a verification command', 'uv run pytest --lf --cache-clear': 'deletes the cache' },
  },
  go: {
    files: { 'go.mod': 'module x\n' },
    allowed: ['go test ./...', 'go test -run TestAdd ./pkg/calc', 'go test -v -count=1 ./pkg/...', 'go test --run=TestAdd -failfast .'],
    refused: {
      'go test -o calc.test ./pkg/calc': 'writes a file',
      'go test -coverprofile=c.out ./...': 'writes a file',
      'go test -exec evil ./...': 'runs another program',
      'go test ./... -args -update': 'unchecked',
      'go test example.com/other/...': './example.com',
      'go test ...': './...',
      'go test ../sibling/...': 'outside the project',
    },
  },
  cargo: {
    files: { 'Cargo.toml': '[package]\n' },
    allowed: ['cargo test', 'cargo test add', 'cargo test --lib -q add -- --nocapture --exact', 'cargo test -p calc --test integration -- --test-threads=1'],
    refused: {
      'cargo test --target-dir /tmp/t': 'writes a file',
      'cargo test --config target.x.runner=evil': 'set the program',
      'cargo test -- --logfile out': 'writes a file',
      'cargo build': 'not a verification command',
    },
  },
  make: {
    files: { Makefile: 'test:\n\t./t\ncheck:\n\t./c\n' },
    allowed: ['make test', 'make check', 'make -k test', 'make test -j4', 'make -s check'],
    refused: {
      'make test install': 'no other target',
      'make test CC=evil': 'no other target',
      'make -C /tmp test': 'config',
      'make install': 'not a verification command',
      'make -f other.mk test': 'config',
    },
  },
  just: {
    files: { justfile: 'test:\n  ./t\n' },
    allowed: ['just test'],
    refused: { 'just test --set x y': 'not an option of this command', 'just deploy': 'not a verification command' },
  },
  maven: {
    files: { 'pom.xml': '', mvnw: '' },
    allowed: ['./mvnw test', './mvnw test -Dtest=CalcTest#add -q', './mvnw -q test -DfailIfNoTests=false'],
    refused: { './mvnw test -Dmaven.repo.local=/tmp/r': 'only -Dtest=', './mvnw test deploy': 'no other target', './mvnw test -s evil.xml': 'config' },
  },
  gradle: {
    files: { 'build.gradle.kts': '', gradlew: '' },
    allowed: ['./gradlew test', "./gradlew test --tests 'calc.CalcTest.add' --info"],
    refused: {
      './gradlew test -I init.gradle': 'config',
      './gradlew test -Pfoo=bar': 'property',
      './gradlew test publish': 'no other target',
      './gradlew test --scan': 'build scan',
    },
  },
  deno: {
    files: { 'deno.json': '{}' },
    allowed: ['deno test', 'deno test --filter add test/answer.test.js', 'deno test --fail-fast --reporter=dot'],
    refused: {
      'deno test -A': 'widens',
      'deno test --allow-write': 'widens',
      'deno test --coverage=cov': 'coverage',
      'deno test --junit-path=r.xml': 'writes a file',
    },
  },
  dotnet: {
    files: { 'Calc.sln': '' },
    allowed: ['dotnet test', 'dotnet test --filter "FullyQualifiedName~Add" -v normal', 'dotnet test --logger "console;verbosity=detailed" --no-build'],
    refused: {
      'dotnet test -o out': 'writes a file',
      'dotnet test --collect "XPlat Code Coverage"': 'coverage',
      'dotnet test --logger trx': 'may only be',
      'dotnet test --results-directory r': 'writes a file',
    },
  },
  mix: {
    files: { 'mix.exs': '' },
    allowed: ['mix test', 'mix test test/answer.test.js:12 --trace', 'mix test --only focus --max-failures 1'],
    refused: { 'mix test --cover': 'coverage', 'mix test --export-coverage x': 'coverage' },
  },
  rspec: {
    files: { Gemfile: '', '.rspec': '' },
    allowed: ['bundle exec rspec', 'bundle exec rspec spec/calc_spec.rb:12 -e "adds" --format documentation', 'bundle exec rspec --fail-fast spec/'],
    refused: {
      'bundle exec rspec -o out.txt': 'writes a file',
      'bundle exec rspec -r ./evil': 'runs another program',
      'bundle exec rspec --format MyFormatter': 'may only be',
      'bundle exec rake release': 'not a verification command',
    },
  },
  rake: { files: { Gemfile: '', Rakefile: '' }, allowed: ['bundle exec rake test'], refused: { 'bundle exec rake test TEST=x': 'no other target' } },
  phpunit: {
    files: { 'composer.json': '{}', 'phpunit.xml': '' },
    allowed: ['vendor/bin/phpunit', './vendor/bin/phpunit --filter testAdd tests/', 'vendor/bin/phpunit --testdox --stop-on-failure'],
    refused: {
      'vendor/bin/phpunit --log-junit r.xml': 'writes a file',
      'vendor/bin/phpunit --coverage-html cov': 'coverage',
      'vendor/bin/phpunit --bootstrap evil.php': 'runs another program',
    },
  },
  'composer + phpunit': {
    files: { 'composer.json': JSON.stringify({ scripts: { test: 'phpunit' } }) },
    allowed: ['composer test', 'composer test -- --filter testAdd'],
    refused: {
      'composer test --filter testAdd': 'go after `--`',
      'composer test -- --migrate-configuration': 'writes a file',
      'composer install': 'not a verification command',
    },
  },
};

describe('focused and verbose runs, per ecosystem', () => {
  it.each(Object.entries(CASES))('%s', (_name, { files, allowed, refused }) => {
    const policy = policyFor(files);
    for (const command of allowed) expect([command, judge(policy, command)]).toEqual([command, expect.objectContaining({ allow: true, verifies: true })]);
    for (const [command, because] of Object.entries(refused)) {
      const decision = judge(policy, command);
      expect([command, decision.allow, decision.reason]).toEqual([command, false, expect.stringContaining(because)]);
    }
  });

  it('runs a verification command only inside the project, following a `cd` in the same command and the shell directory of earlier calls', () => {
    const policy = policyFor(pkg('node --test'));
    expect(judge(policy, 'cd test && node --test answer.test.js').allow).toBe(true);
    expect(judge(policy, 'node --test answer.test.js', path.join(root, 'test')).allow).toBe(true);
    expect(judge(policy, 'node --test ../test/answer.test.js', path.join(root, 'test')).allow).toBe(true);
    expect(judge(policy, 'node --test ../../x.test.js', path.join(root, 'test')).reason).toContain('outside the project');
    for (const command of [
      'cd /tmp && npm test',
      'cd .. && npm test',
      'cd linked && npm test',
      'cd; npm test',
      'cd - && npm test',
      'cd ~ && npm test',
      'cd test || npm test -- ../../x.js',
    ]) {
      const decision = judge(policy, command);
      expect([command, decision.allow, decision.reason]).toEqual([command, false, expect.stringMatching(/outside the project/)]);
    }
    expect(judge(policy, 'npm test', outside).reason).toContain('outside the project');
    expect(judge(policy, 'cd /tmp && ls').allow).toBe(true);
  });

  it('finds every runner of a polyglot repository', () => {
    const policy = policyFor({ ...pkg('node --test'), 'pytest.ini': '', 'Cargo.toml': '', Makefile: 'check:\n\t./c\n' });
    for (const command of ['npm test -- test/answer.test.js', 'pytest -k add', 'cargo test add', 'make check'])
      expect([command, judge(policy, command).allow]).toEqual([command, true]);
  });
});
