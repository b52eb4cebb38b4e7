/**
 * A run that ran no test is never evidence, per runner, with the real claude and the real runners:
 * the scripted reviewer runs each runner's collect-only, list, no-run and dry-run forms and a filter
 * that selects nothing, then answers complete. The verdict is `unverified` (the runs that exited 0
 * are recorded with why they do not count), and with `supervisor.reviewer.require_evidence` the
 * complete is refused and the agent told why. Where a runner's project passes (vitest, jest, go),
 * one real passing run ends the same review: the verdict is `verified` by it, with the count the
 * runner printed. Forms that would write or never end are refused before they run. One claude
 * session per runner. jest, vitest, pnpm and yarn are this repository's dev dependencies (its
 * `node_modules/.bin` goes first on PATH); go comes from the system (`npm run test:setup` installs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { bashCall, scriptedReviewer } from '../support/review-script.js';
import { jsonLines, runProcess } from '../support/run-process.js';
import { nodeFilteredOut, RUNNER_NODE_MAJOR, TOOL_ENV } from '../support/runner-tools.js';
import { needs, skippedByName, skipNote, type ToolName } from '../support/tools.js';

const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\n";
const PASSING_JS_TESTS = "test('adds', () => expect(1 + 1).toBe(2));\ntest('subtracts', () => expect(2 - 1).toBe(1));\n";
const GO_TESTS =
  'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal("zero")\n\t}\n}\n';
const PYTEST_FILES = {
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};

interface Runner {
  /** The system tool it needs (test/support/tools.ts); npm and this repository's dev dependencies are always there. */
  tool?: ToolName;
  files: Record<string, string>;
  /** Folders linked in from this repository (a runner installed with ccc's own dependencies). */
  links?: Record<string, string>;
  prepare?: string[];
  /** Environment for the runner, given the test's temporary root (caches kept out of HOME and the project). */
  env?: (root: string) => NodeJS.ProcessEnv;
  /** Command → its exit code and why it does not count (absent when it failed). */
  runs: Record<string, { exit: number; why?: string }>;
  /** Command → what its refusal says: it never runs, so it is no evidence. */
  refused?: Record<string, string>;
  /** A real run that passes, last in the review: the verdict is verified by it, with the number of tests the runner printed. */
  passing?: { command: string; tests: number };
}

const RUNNERS: Record<string, Runner> = {
  pytest: {
    tool: 'pytest',
    files: PYTEST_FILES,
    runs: {
      'python3 -m pytest --co -q': { exit: 0, why: 'it only collects the tests (`--co`)' },
      'pytest --collect-only tests/': { exit: 0, why: 'it only collects the tests (`--collect-only`)' },
      'pytest -q -k nomatch': { exit: 5, why: 'no test passed (1 deselected)' },
    },
  },
  'npm with node --test': {
    files: {
      'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node --test' } }),
      'test/add.test.js': `${NODE_TEST}test('adds', () => assert.strictEqual(1 + 1, 3));\n`,
    },
    runs: {
      'node --test --test-name-pattern=nomatch': { exit: 0, why: nodeFilteredOut(1) },
      'npm test -- --test-name-pattern=nomatch': { exit: 0, why: nodeFilteredOut(1) },
      'npm test -- --test-reporter spec --test-only': { exit: 0, why: nodeFilteredOut(1) },
      // node 20 has no --test-skip-pattern.
      ...(RUNNER_NODE_MAJOR >= 22 ? { 'node --test --test-reporter=spec --test-skip-pattern=adds': { exit: 0, why: nodeFilteredOut(1) } } : {}),
      'npm test -- --test-reporter dot --test-name-pattern=nomatch': { exit: 0, why: 'its output shows no test summary that ccc reads' },
    },
  },
  'make running node --test': {
    tool: 'make',
    files: {
      Makefile: '.PHONY: test\ntest:\n\tnode --test --test-name-pattern=nomatch\n',
      'test/add.test.js': `${NODE_TEST}test('adds', () => assert.strictEqual(1 + 1, 3));\n`,
    },
    runs: { 'make test': { exit: 0, why: nodeFilteredOut(1) }, 'make -s test': { exit: 0, why: nodeFilteredOut(1) } },
  },
  mocha: {
    files: {
      'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'mocha' } }),
      'test/add.spec.js': "const assert = require('node:assert');\nit('adds', () => assert.strictEqual(1 + 1, 3));\n",
    },
    links: { node_modules: path.join(repoRoot, 'node_modules') },
    runs: {
      'npx mocha --dry-run': { exit: 0, why: 'a dry run walks the tests without running them (`--dry-run`)' },
      'npm test -- -g nomatch': { exit: 0, why: 'it ran no test' },
    },
  },
  vitest: {
    files: {
      'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'vitest run' } }),
      'test/add.test.js': `import { test, expect } from 'vitest';\n${PASSING_JS_TESTS}`,
    },
    links: { node_modules: path.join(repoRoot, 'node_modules') },
    runs: {
      'npx vitest list': { exit: 0, why: 'it only lists the tests (`list`)' },
      'npx vitest --run -t nomatch': { exit: 0, why: 'no test passed (2 skipped)' },
      'npx vitest run --passWithNoTests nofile': { exit: 0, why: 'it ran no test' },
    },
    refused: { 'npx vitest --watch': 'watch mode never ends', 'npx vitest watch': 'watch mode never ends' },
    passing: { command: 'npx vitest run', tests: 2 },
  },
  jest: {
    files: {
      'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'jest' } }),
      'test/add.test.js': PASSING_JS_TESTS,
    },
    links: { node_modules: path.join(repoRoot, 'node_modules') },
    runs: {
      'npx jest --listTests': { exit: 0, why: 'it only lists the tests (`--listTests`)' },
      'npx jest -t nomatch': { exit: 0, why: 'no test passed (2 skipped)' },
      'npx jest --passWithNoTests nofile': { exit: 0, why: 'it ran no test' },
    },
    passing: { command: 'npm test', tests: 2 },
  },
  go: {
    tool: 'go',
    files: {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
      'calc_test.go': GO_TESTS,
    },
    env: (root) => ({ GOCACHE: path.join(root, 'go-cache'), GOPATH: path.join(root, 'go-path') }),
    runs: {
      'go test -run XXX ./...': { exit: 0, why: 'it ran no test' },
      "go test -run '^$' ./...": { exit: 0, why: 'it ran no test' },
      'go test -list . ./...': { exit: 0, why: 'it only lists the tests (`-list`)' },
    },
    refused: { 'go test -c ./...': 'it writes a file', 'go vet ./...': 'not a verification command' },
    passing: { command: 'go test -v ./...', tests: 2 },
  },
  cargo: {
    tool: 'cargo',
    files: {
      'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a - b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 3), 5); }\n}\n',
    },
    prepare: ['cargo', 'test', '--no-run', '--offline', '-q'],
    runs: {
      'cargo test --offline --no-run': { exit: 0, why: 'it only builds the tests (`--no-run`)' },
      'cargo test --offline -- --list': { exit: 0, why: 'it only lists the tests (`--list`)' },
      'cargo test --offline nomatch': { exit: 0, why: 'no test passed (1 deselected)' },
    },
  },
};

/** The fields these tests pin (the counts of tests that did not pass are pinned in the unit tests). */
function shown(evidence: unknown): unknown[] {
  return (evidence as Array<Record<string, unknown>>).map(({ command, exit_code, not_counted, scope, tests }) => ({
    command,
    exit_code,
    ...(not_counted === undefined ? {} : { not_counted }),
    ...(scope === undefined ? {} : { scope }),
    ...(tests === undefined ? {} : { tests }),
  }));
}

describe('a run that ran no test is no evidence (real runners, real claude)', () => {
  async function makeProject(world: ClaudeWorld, runner: Runner, config?: Record<string, unknown>): Promise<void> {
    for (const [file, text] of Object.entries(runner.files)) {
      fs.mkdirSync(path.dirname(path.join(world.cwd, file)), { recursive: true });
      fs.writeFileSync(path.join(world.cwd, file), text);
    }
    for (const [link, target] of Object.entries(runner.links ?? {})) fs.symlinkSync(target, path.join(world.cwd, link));
    if (config) fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify(config));
    if (runner.prepare) {
      // Not spawnSync: a build that holds this worker's event loop past vitest's 60 s RPC timeout
      // on a loaded machine ends the whole run in "Timeout calling onTaskUpdate".
      const built = await runProcess(runner.prepare[0]!, runner.prepare.slice(1), { cwd: world.cwd, env: world.env, timeoutMs: 170_000 });
      expect(built.code, built.stderr).toBe(0);
    }
  }

  for (const [name, runner] of Object.entries(RUNNERS)) {
    const outcome = runner.passing ? `unverified until a real run passes (${runner.passing.command})` : 'a complete unverified';
    it.skipIf(skippedByName(runner.tool))(
      `${name}: collect-only, list, no-run, dry-run and empty filters leave ${outcome}${skipNote(runner.tool)}`,
      async ({ skip, rig }) => {
        if (runner.tool) needs({ skip }, runner.tool);
        const commands = Object.keys(runner.runs);
        const refused = Object.keys(runner.refused ?? {});
        const calls = [...commands, ...refused, ...(runner.passing ? [runner.passing.command] : [])];
        const reviewer = scriptedReviewer(calls.map(bashCall), { completed: true, feedback: 'the tests are fine' });
        const { world } = await rig.start(reviewer.scenario, { env: TOOL_ENV });
        Object.assign(world.env, runner.env?.(world.root));
        await makeProject(world, runner);

        const run = await runCcc(world, ['--supervisor', '--json', '-p', 'make the tests pass'], { timeoutMs: 170_000 });
        expect(run.code, run.stderr).toBe(0);
        expect(reviewer.seen.map((s) => [s.call.input.command, s.isError])).toEqual([
          ...commands.map((c) => [c, runner.runs[c]!.exit !== 0]),
          ...refused.map((c) => [c, true]),
          ...(runner.passing ? [[runner.passing.command, false]] : []),
        ]);
        for (const [i, command] of refused.entries()) expect(reviewer.seen[commands.length + i]!.text).toContain(runner.refused![command]);
        const verdict = jsonLines(run.stdout).find((e) => e.kind === 'verdict');
        expect(verdict).toMatchObject({ completed: true, verification: runner.passing ? 'verified' : 'unverified' });
        expect(shown(verdict!.evidence)).toEqual([
          ...commands.map((command) => {
            const { exit, why } = runner.runs[command]!;
            return { command, exit_code: exit, ...(why ? { not_counted: why } : {}) };
          }),
          ...(runner.passing ? [{ command: runner.passing.command, exit_code: 0, scope: 'whole', tests: runner.passing.tests }] : []),
        ]);
        if (runner.passing) expect(readLog(world)).toContain(`evidence="verified by: ${runner.passing.command} (${runner.passing.tests} tests)"`);
        else expect(readLog(world)).toMatch(/completed=true checker=claude review=forked evidence="unverified: .*review finished/);
      },
      180_000,
    );
  }

  it.skipIf(skippedByName('pytest'))(
    `require_evidence: a collect-only run does not let a failing project pass, and the agent is told why${skipNote('pytest')}`,
    async ({ skip, rig }) => {
      needs({ skip }, 'pytest');
      const reviewer = scriptedReviewer([bashCall('python3 -m pytest --co -q')], { completed: true, feedback: 'collected fine' });
      const { server, world } = await rig.start(reviewer.scenario, { env: TOOL_ENV });
      await makeProject(world, RUNNERS.pytest!, { supervisor: { max_iterations: 2, reviewer: { require_evidence: true } } });

      const run = await runCcc(world, ['--supervisor', '-p', 'make test_add pass'], { timeoutMs: 170_000 });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).not.toMatch(/ccc: [^✗\s] complete/);
      expect(run.stderr).toContain('✗ not complete (claude, no test evidence: python3 -m pytest --co -q: it only collects the tests (`--co`), $');
      expect(run.stderr).toContain('The work could not be verified');
      const feedback = server
        .byKind('agent')
        .map((r) => r.lastUserText)
        .find((t) => t.includes('could not be verified'));
      expect(feedback).toContain('it ran `python3 -m pytest --co -q` (exit 0, but it only collects the tests (`--co`))');
      expect(feedback).toContain('Run `python3 -m pytest`');
    },
    180_000,
  );
});
