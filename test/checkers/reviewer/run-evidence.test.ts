/**
 * One command's evidence from the command, its exit code and its output, over the matrix of
 * runners × ways of passing off a run as verification: a script that runs nothing, a summary
 * printed by hand, every test skipped or xfailed, a filter that leaves the failing test out, a
 * failing run. The outputs are what the runners printed on this machine (pytest 9, node 20,
 * jest 30, vitest 3, mocha 11, cargo 1.95, go 1.19, Python 3.11's unittest).
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/checkers/evidence.js';
import { strengthOf } from '../../../src/checkers/evidence.js';
import { verificationDetails, verificationOf } from '../../../src/checkers/verification.js';
import { reviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';
import { runEvidence, type EvidenceProject } from '../../../src/checkers/reviewer/run-evidence.js';
import { detectTests } from '../../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../../src/init/project-files.js';

function project(files: Record<string, string>, ruleCommands: string[] = []): EvidenceProject {
  const read = memoryProjectFiles(files);
  return { policy: reviewerPolicy({ root: '/nonexistent/project', tests: detectTests(read), ruleCommands, allow: [] }), files: read };
}

const run = (p: EvidenceProject, command: string, exitCode: number | null, output: string) => runEvidence(p, { command, exitCode, output });

const PYTEST = {
  pass: '.s.x                                                                     [100%]\n2 passed, 1 skipped, 1 xfailed in 0.11s\n',
  fail: [
    'tests/test_calc.py .Fsx                                                  [100%]',
    '=================================== FAILURES ===================================',
    '    def test_garbage_rejected():',
    '>       assert add(1, 1) == 3',
    'E       assert 2 == 3',
    '=========================== short test summary info ============================',
    'FAILED tests/test_calc.py::test_garbage_rejected - assert 2 == 3',
    '============== 1 failed, 1 passed, 1 skipped, 1 xfailed in 0.11s ===============',
  ].join('\n'),
  deselected: '.sx                                                                      [100%]\n1 passed, 1 skipped, 1 deselected, 1 xfailed in 0.11s\n',
  xfailAll: 'Xxsx                                                                     [100%]\n1 skipped, 2 xfailed, 1 xpassed in 0.13s\n',
};
const TAP = (pass: number, fail: number, skipped = 0) =>
  `TAP version 13\nok 1 - adds\n1..${pass + fail + skipped}\n# tests ${pass + fail + skipped}\n# suites 0\n# pass ${pass}\n# fail ${fail}\n# cancelled 0\n# skipped ${skipped}\n# todo 0\n# duration_ms 78.5\n`;
const NODE_FAIL =
  "TAP version 13\n# Subtest: garbage rejected\nnot ok 2 - garbage rejected\n  ---\n  duration_ms: 0.86\n  failureType: 'testCodeFailure'\n  error: |-\n    Expected values to be strictly equal:\n    \n    2 !== 3\n  code: 'ERR_ASSERTION'\n  ...\n# Subtest: todo one\nnot ok 4 - todo one # TODO\n1..4\n# tests 4\n# pass 1\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 1\n";
const JEST = (counts: string) => `Test Suites: 1 passed, 1 total\nTests:       ${counts}\nSnapshots:   0 total\nTime:        0.302 s\nRan all test suites.\n`;
const JEST_FAIL =
  'FAIL test/add.test.js\n  ✓ adds (2 ms)\n  ✕ garbage rejected (2 ms)\n\n  ● garbage rejected\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 3\n    Received: 2\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 1 skipped, 1 todo, 1 passed, 4 total\n';
const VITEST = (counts: string, files = '1 passed (1)') => `\n Test Files  ${files}\n      Tests  ${counts}\n   Start at  06:28:11\n   Duration  257ms\n`;
const VITEST_FAIL =
  ' FAIL  test/v.test.js > garbage rejected\nAssertionError: expected 2 to be 3 // Object.is equality\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed | 1 skipped | 1 todo (4)\n';
const MOCHA = (passing: number, extra = '') => `  calc\n    ✔ adds\n\n\n  ${passing} passing (3ms)\n${extra}`;
const MOCHA_FAIL =
  '  calc\n    ✔ adds\n    1) garbage rejected\n\n\n  1 passing (3ms)\n  1 pending\n  1 failing\n\n  1) calc\n       garbage rejected:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n2 !== 3\n';
const CARGO = (passed: number, failed: number, ignored: number, filtered: number) =>
  `\nrunning ${passed + failed + ignored} tests\n.i\ntest result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; ${ignored} ignored; 0 measured; ${filtered} filtered out; finished in 0.00s\n\n   Doc-tests calc\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n`;
const CARGO_FAIL = `\nrunning 3 tests\n.i 2/3\ntests::garbage_rejected --- FAILED\n\nfailures:\n\n---- tests::garbage_rejected stdout ----\n\nthread 'tests::garbage_rejected' (17009) panicked at src/lib.rs:7:29:\nassertion \`left == right\` failed\n  left: 2\n right: 3\n\nfailures:\n    tests::garbage_rejected\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n`;
const GO_V = '=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestSub\n--- PASS: TestSub (0.00s)\nPASS\nok  \texample.com/calc\t0.005s\n';
const GO_SKIPPED =
  '=== RUN   TestAdd\n    calc_test.go:7: later\n--- SKIP: TestAdd (0.00s)\n=== RUN   TestSub\n    calc_test.go:12: later\n--- SKIP: TestSub (0.00s)\nPASS\nok  \texample.com/calc\t0.005s\n';
const GO_FAIL = '--- FAIL: TestGarbageRejected (0.00s)\n    calc_test.go:13: Add(1, 1) = 2, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\nFAIL\n';
const UNITTEST = (tail: string, ran: number) =>
  `.s\n----------------------------------------------------------------------\nRan ${ran} tests in 0.000s\n\n${tail}\n`;

const npm = (test: string, extra: Record<string, string> = {}) => ({
  'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test } }),
  ...extra,
});
const PYTEST_FILES = { 'pytest.ini': '[pytest]\npythonpath = .\n', 'tests/test_calc.py': 'def test_add():\n    assert True\n' };
const GO_FILES = { 'go.mod': 'module example.com/calc\n\ngo 1.19\n', 'calc_test.go': 'package calc\n' };
const CARGO_FILES = { 'Cargo.toml': '[package]\nname = "calc"\n' };
const WORKSPACE = (manager: 'npm' | 'pnpm' | 'yarn', root: string) => ({
  'package.json': JSON.stringify({ name: 'mono', private: true, ...(manager === 'pnpm' ? {} : { workspaces: ['packages/*'] }), scripts: { test: root } }),
  ...(manager === 'pnpm' ? { 'pnpm-workspace.yaml': 'packages:\n  - packages/*\n' } : {}),
  ...(manager === 'yarn' ? { 'yarn.lock': '' } : {}),
  'packages/strings/package.json': JSON.stringify({ name: '@mono/strings', version: '1.0.0', scripts: { test: 'node --test' } }),
  'packages/math/package.json': JSON.stringify({ name: '@mono/math', version: '1.0.0', scripts: { test: 'node --test' } }),
});

interface Row {
  files: Record<string, string>;
  command: string;
  exit: number;
  output: string;
  /** The outcome of a complete verdict resting on this run alone. */
  outcome: 'verified' | 'focused' | 'unverified';
  /** A piece of the evidence text. */
  says: string;
}

/** Runner → case → the run and what it must come to. */
const MATRIX: Record<string, Record<string, Row>> = {
  pytest: {
    whole: {
      files: PYTEST_FILES,
      command: 'python3 -m pytest -q',
      exit: 0,
      output: PYTEST.pass,
      outcome: 'verified',
      says: 'verified by: python3 -m pytest -q (2 of 4 tests, 1 skipped, 1 xfailed)',
    },
    'a filter that leaves the failing test out': {
      files: PYTEST_FILES,
      command: "python3 -m pytest -k 'not garbage'",
      exit: 0,
      output: PYTEST.deselected,
      outcome: 'focused',
      says: '(1 of 3 tests, 1 skipped, 1 xfailed, 1 deselected; a name filter (`-k`))',
    },
    'a deselected failing test': {
      files: PYTEST_FILES,
      command: 'pytest --deselect tests/test_calc.py::test_garbage_rejected',
      exit: 0,
      output: PYTEST.deselected,
      outcome: 'focused',
      says: '1 deselected; tests left out (`--deselect`)',
    },
    'one node id': {
      files: PYTEST_FILES,
      command: 'pytest tests/test_calc.py::test_add',
      exit: 0,
      output: '.\n1 passed in 0.01s\n',
      outcome: 'focused',
      says: 'a path (`tests/test_calc.py::test_add`)',
    },
    'every test xfailed': {
      files: PYTEST_FILES,
      command: 'python3 -m pytest',
      exit: 0,
      output: PYTEST.xfailAll,
      outcome: 'unverified',
      says: 'no test passed (1 skipped, 2 xfailed, 1 xpassed)',
    },
    'a summary printed by hand': {
      files: { ...PYTEST_FILES, Makefile: 'test:\n\t@echo "5 passed in 0.01s"\n' },
      command: 'make test',
      exit: 0,
      output: '5 passed in 0.01s\n',
      outcome: 'unverified',
      says: 'make test: it runs `echo 5 passed in 0.01s`: no test runner ccc knows',
    },
    'a pytest that deselects everything, then its summary echoed in a target': {
      files: { ...PYTEST_FILES, Makefile: 'test:\n\tpytest -q -k nomatch || true\n\t@echo "5 passed in 0.01s"\n' },
      command: 'make test',
      exit: 0,
      output: '3 deselected in 0.01s\n5 passed in 0.01s\n',
      outcome: 'unverified',
      says: 'make test: it prints a test summary by hand (`echo 5 passed in 0.01s`)',
    },
    'a failing run': {
      files: PYTEST_FILES,
      command: 'python3 -m pytest',
      exit: 1,
      output: PYTEST.fail,
      outcome: 'unverified',
      says: 'failed: python3 -m pytest (exit 1: tests/test_calc.py::test_garbage_rejected)',
    },
  },
  'node --test (npm)': {
    whole: {
      files: npm('node --test'),
      command: 'npm test',
      exit: 0,
      output: `> calc test\n> node --test\n\n${TAP(2, 0)}`,
      outcome: 'verified',
      says: 'verified by: npm test (2 tests)',
    },
    'a name pattern': {
      files: npm('node --test'),
      command: 'npm test -- --test-name-pattern=adds',
      exit: 0,
      output: TAP(1, 0, 3),
      outcome: 'focused',
      says: '1 of 4 tests, 3 skipped; a name filter (`--test-name-pattern`)',
    },
    'a test script that runs nothing': {
      files: npm('exit 0'),
      command: 'npm test',
      exit: 0,
      output: '> calc test\n> exit 0\n',
      outcome: 'unverified',
      says: 'it runs `exit 0`: no test runner ccc knows',
    },
    'a summary printed by hand': {
      files: npm('echo "# pass 5"'),
      command: 'npm test',
      exit: 0,
      output: '# tests 5\n# pass 5\n# fail 0\n',
      outcome: 'unverified',
      says: 'npm test: it runs `echo # pass 5`: no test runner',
    },
    'a run that ran nothing, then its summary printed by hand': {
      files: npm("node --test --test-name-pattern=nomatch; echo '# pass 5'"),
      command: 'npm test',
      exit: 0,
      output: `${TAP(0, 0, 0)}# pass 5\n`,
      outcome: 'unverified',
      says: 'npm test: it prints a test summary by hand (`echo # pass 5`)',
    },
    'its output hidden and a summary printf-ed by hand': {
      files: npm("node --test >/dev/null 2>&1; printf '# tests 5\\n# pass 5\\n'"),
      command: 'npm test',
      exit: 0,
      output: '# tests 5\n# pass 5\n',
      outcome: 'unverified',
      says: 'it prints a test summary by hand (`printf # tests 5\\n# pass 5\\n`)',
    },
    'every test skipped': {
      files: npm('node --test'),
      command: 'npm test',
      exit: 0,
      output: TAP(0, 0, 2),
      outcome: 'unverified',
      says: 'no test passed (2 skipped)',
    },
    'a failing run': {
      files: npm('node --test'),
      command: 'npm test',
      exit: 1,
      output: NODE_FAIL,
      outcome: 'unverified',
      says: 'failed: npm test (exit 1: garbage rejected)',
    },
  },
  'jest (npm)': {
    whole: {
      files: npm('jest'),
      command: 'npm test',
      exit: 0,
      output: JEST('1 skipped, 1 todo, 2 passed, 4 total'),
      outcome: 'verified',
      says: 'npm test (2 of 4 tests, 1 skipped, 1 todo)',
    },
    'a -t filter': {
      files: npm('jest'),
      command: 'npx jest -t adds',
      exit: 0,
      output: JEST('3 skipped, 1 passed, 4 total'),
      outcome: 'focused',
      says: 'a name filter (`-t`)',
    },
    'a runner summary printed by a script': {
      files: npm('node run-tests.js', { 'run-tests.js': "console.log('Tests: 5 passed, 5 total')" }),
      command: 'npm test',
      exit: 0,
      output: 'Tests:       5 passed, 5 total\n',
      outcome: 'unverified',
      says: 'it runs `node run-tests.js`: no test runner ccc knows',
    },
    'a type-check for a test script': { files: npm('tsc --noEmit'), command: 'npm test', exit: 0, output: '', outcome: 'unverified', says: '`tsc --noEmit`' },
    'a failing run': { files: npm('jest'), command: 'npm test', exit: 1, output: JEST_FAIL, outcome: 'unverified', says: '(exit 1: garbage rejected)' },
  },
  'vitest (npm)': {
    whole: {
      files: npm('vitest run'),
      command: 'npm test',
      exit: 0,
      output: VITEST('2 passed | 1 skipped (3)'),
      outcome: 'verified',
      says: 'npm test (2 of 3 tests, 1 skipped)',
    },
    'one file': {
      files: npm('vitest run'),
      command: 'npx vitest run test/v.test.js',
      exit: 0,
      output: VITEST('2 passed (2)'),
      outcome: 'focused',
      says: 'a path (`test/v.test.js`)',
    },
    'every test skipped': {
      files: npm('vitest run'),
      command: 'npm test',
      exit: 0,
      output: VITEST('2 skipped (2)', '1 skipped (1)'),
      outcome: 'unverified',
      says: 'no test passed (2 skipped)',
    },
    'a script that echoes': {
      files: npm('echo " Tests  5 passed (5)"'),
      command: 'npm test',
      exit: 0,
      output: ' Tests  5 passed (5)\n',
      outcome: 'unverified',
      says: 'no test runner',
    },
    'a failing run': {
      files: npm('vitest run'),
      command: 'npm test',
      exit: 1,
      output: VITEST_FAIL,
      outcome: 'unverified',
      says: '(exit 1: test/v.test.js > garbage rejected)',
    },
  },
  'mocha (npm)': {
    whole: {
      files: npm('mocha'),
      command: 'npm test',
      exit: 0,
      output: MOCHA(2, '  1 pending\n'),
      outcome: 'verified',
      says: 'npm test (2 of 3 tests, 1 skipped)',
    },
    'a grep': { files: npm('mocha'), command: 'npm test -- -g adds', exit: 0, output: MOCHA(1), outcome: 'focused', says: 'a name filter (`-g`)' },
    true: { files: npm('true'), command: 'npm test', exit: 0, output: '', outcome: 'unverified', says: '`true`' },
    'a failing run': { files: npm('mocha'), command: 'npm test', exit: 1, output: MOCHA_FAIL, outcome: 'unverified', says: '(exit 1: calc garbage rejected)' },
  },
  cargo: {
    whole: { files: CARGO_FILES, command: 'cargo test', exit: 0, output: CARGO(2, 0, 1, 0), outcome: 'verified', says: 'cargo test (2 of 3 tests, 1 skipped)' },
    'a name filter': {
      files: CARGO_FILES,
      command: 'cargo test -- adds',
      exit: 0,
      output: CARGO(1, 0, 0, 2),
      outcome: 'focused',
      says: '(1 test, 2 deselected; a name filter (`adds`))',
    },
    'a filter as cargo sees it': {
      files: CARGO_FILES,
      command: 'cargo test adds',
      exit: 0,
      output: CARGO(1, 0, 0, 2),
      outcome: 'focused',
      says: 'a name filter (`adds`)',
    },
    'every test ignored': {
      files: CARGO_FILES,
      command: 'cargo test',
      exit: 0,
      output: CARGO(0, 0, 3, 0),
      outcome: 'unverified',
      says: 'no test passed (3 skipped)',
    },
    'a failing run': {
      files: CARGO_FILES,
      command: 'cargo test',
      exit: 101,
      output: CARGO_FAIL,
      outcome: 'unverified',
      says: '(exit 101: tests::garbage_rejected)',
    },
  },
  go: {
    whole: { files: GO_FILES, command: 'go test -v ./...', exit: 0, output: GO_V, outcome: 'verified', says: 'go test -v ./... (2 tests)' },
    '-run': {
      files: GO_FILES,
      command: 'go test -run TestAdd ./...',
      exit: 0,
      output: 'ok  \texample.com/calc\t0.005s\n',
      outcome: 'focused',
      says: 'a name filter (`-run`)',
    },
    'every test skipped': {
      files: GO_FILES,
      command: 'go test -v ./...',
      exit: 0,
      output: GO_SKIPPED,
      outcome: 'unverified',
      says: 'no test passed (2 skipped)',
    },
    'a failing run': { files: GO_FILES, command: 'go test ./...', exit: 1, output: GO_FAIL, outcome: 'unverified', says: '(exit 1: TestGarbageRejected)' },
  },
  make: {
    'a target running pytest': {
      files: { ...PYTEST_FILES, Makefile: 'PYTEST ?= python3 -m pytest\n.PHONY: test\ntest: lint\n\t$(PYTEST) -q\nlint:\n\t@echo linted\n' },
      command: 'make test',
      exit: 0,
      output: PYTEST.pass,
      outcome: 'verified',
      says: 'verified by: make test (2 of 4 tests',
    },
    'a target running unittest': {
      files: { Makefile: 'test:\n\tpython3 -m unittest discover -s tests\n' },
      command: 'make test',
      exit: 0,
      output: UNITTEST('OK (skipped=1)', 3),
      outcome: 'verified',
      says: 'make test (2 of 3 tests, 1 skipped)',
    },
    'a target that only echoes': {
      files: { Makefile: 'test:\n\t@echo "ok  \texample.com/calc\t0.1s"\n' },
      command: 'make test',
      exit: 0,
      output: 'ok  \texample.com/calc\t0.1s\n',
      outcome: 'unverified',
      says: 'no test runner',
    },
    'a target whose pytest deselects': {
      files: { ...PYTEST_FILES, Makefile: 'test:\n\tpytest -k "not garbage"\n' },
      command: 'make test',
      exit: 0,
      output: PYTEST.deselected,
      outcome: 'focused',
      says: '1 deselected',
    },
    'a pytest summary in a node target': {
      files: { Makefile: 'test:\n\tnode --test\n\techo "9 passed in 0.1s"\n' },
      command: 'make test',
      exit: 0,
      output: `${TAP(0, 0, 2)}9 passed in 0.1s\n`,
      outcome: 'unverified',
      says: 'no test passed (2 skipped)',
    },
    'a failing run': {
      files: { ...PYTEST_FILES, Makefile: 'test:\n\tpytest\n' },
      command: 'make test',
      exit: 2,
      output: `${PYTEST.fail}\nmake: *** [Makefile:2: test] Error 1\n`,
      outcome: 'unverified',
      says: '(exit 2: tests/test_calc.py::test_garbage_rejected)',
    },
  },
  'npm workspaces': {
    'every workspace': {
      files: WORKSPACE('npm', 'npm test --workspaces'),
      command: 'npm test',
      exit: 0,
      output: `${TAP(2, 0)}${TAP(1, 0)}`,
      outcome: 'verified',
      says: 'verified by: npm test (3 tests)',
    },
    'one workspace of two': {
      files: WORKSPACE('npm', 'npm test --workspaces'),
      command: 'npm test -w packages/strings',
      exit: 0,
      output: TAP(2, 0),
      outcome: 'focused',
      says: 'one workspace of 2 (packages/strings)',
    },
    'a root that echoes': {
      files: WORKSPACE('npm', 'echo all workspaces passed'),
      command: 'npm test',
      exit: 0,
      output: 'all workspaces passed\n',
      outcome: 'unverified',
      says: 'no test runner',
    },
  },
  'pnpm workspaces': {
    'every workspace': {
      files: WORKSPACE('pnpm', 'pnpm -r test'),
      command: 'pnpm test',
      exit: 0,
      output: `${TAP(2, 0)}${TAP(1, 0)}`,
      outcome: 'verified',
      says: 'verified by: pnpm test (3 tests)',
    },
    'one workspace of two': {
      files: WORKSPACE('pnpm', 'pnpm -r test'),
      command: 'pnpm --filter @mono/strings test',
      exit: 0,
      output: TAP(2, 0),
      outcome: 'focused',
      says: 'one workspace of 2',
    },
  },
  'yarn workspaces': {
    'every workspace': {
      files: WORKSPACE('yarn', 'yarn workspaces run test'),
      command: 'yarn test',
      exit: 0,
      output: `${TAP(2, 0)}${TAP(1, 0)}`,
      outcome: 'verified',
      says: 'verified by: yarn test (3 tests)',
    },
    'one workspace of two': {
      files: WORKSPACE('yarn', 'yarn workspaces run test'),
      command: 'yarn workspace @mono/strings test',
      exit: 0,
      output: TAP(2, 0),
      outcome: 'focused',
      says: 'one workspace of 2',
    },
  },
};

describe('one run as evidence, runners × ways to pass off a run', () => {
  for (const [runner, cases] of Object.entries(MATRIX)) {
    for (const [name, row] of Object.entries(cases)) {
      it(`${runner}: ${name} → ${row.outcome}`, () => {
        const evidence = run(project(row.files), row.command, row.exit, row.output);
        expect(evidence).toBeDefined();
        const verification = verificationOf(true, [evidence!]);
        expect([verification, verificationDetails(true, [evidence!])]).toEqual([row.outcome, expect.stringContaining(row.says)]);
      });
    }
  }

  it('a failing run carries the failing tests and is a failing run; a run that ran none is not a failure', () => {
    const p = project(PYTEST_FILES);
    expect(run(p, 'python3 -m pytest', 1, PYTEST.fail)).toEqual({
      command: 'python3 -m pytest',
      exit_code: 1,
      failed: 1,
      failures: ['tests/test_calc.py::test_garbage_rejected: assert 2 == 3'],
    });
    expect(run(p, 'pytest -q -k nomatch', 5, '4 deselected in 0.01s\n')).toEqual({
      command: 'pytest -q -k nomatch',
      exit_code: 5,
      not_counted: 'no test passed (4 deselected)',
    });
    // Exit 0 with failures reported (`jest || true` in a script) is a failing run too.
    const masked = run(project(npm('jest || true')), 'npm test', 0, JEST_FAIL)!;
    expect([strengthOf(masked), masked.not_counted]).toEqual(['failing', 'its output reports failing tests']);
  });

  it("a rule command is the user's own suite: its arguments select nothing; a rule that runs no test runner is no test evidence", () => {
    const p = project(PYTEST_FILES, ['pytest tests/unit -q', 'npm run lint']);
    expect(run(p, 'pytest tests/unit -q', 0, '3 passed in 0.01s\n')).toEqual({ command: 'pytest tests/unit -q', exit_code: 0, scope: 'whole', tests: 3 });
    expect(run(p, 'npm run lint', 0, '')!.not_counted).toContain('no test runner');
  });

  it('forms that run no test, a run in the background, still running or cut by claude', () => {
    const p = project(npm('jest'));
    expect(run(p, 'npx jest --listTests', 0, 'test/a.test.js')!.not_counted).toBe('it only lists the tests (`--listTests`)');
    expect(runEvidence(p, { command: 'npm test', exitCode: 0, output: JEST('2 passed, 2 total'), background: true })!.not_counted).toBe(
      'it ran in the background',
    );
    expect(run(p, 'npm test', 0, '[still running] The command did not finish within its 2s timeout.')!.not_counted).toContain('had not finished');
    const cut = `<persisted-output>\nOutput too large (97.7KB). Full output saved to: /x.txt\n\nPreview (first 2KB):\nPASS a\n...\n</persisted-output>`;
    expect(run(p, 'npm test', 0, cut)).toEqual({ command: 'npm test', exit_code: 0, scope: 'whole' });
    // A script that only collects is no run, as the same option given by the reviewer.
    expect(run(project(npm('pytest --co')), 'npm test', 0, '2 tests collected in 0.01s')!.not_counted).toBe('it only collects the tests (`--co`)');
  });

  it('a command that is no verification command is no evidence; a pipe masks the exit code', () => {
    const p = project(npm('jest'));
    expect(run(p, 'git diff', 0, '')).toBeUndefined();
    expect(run(p, 'npm test 2>&1 | tail -n 5', 0, JEST('2 passed, 2 total'))).toEqual({ command: 'npm test 2>&1 | tail -n 5', exit_code: null });
  });

  it("another program beside the runner in the project's test command can print or drop the runner's lines: no summary is read", () => {
    const FORGED = '5 passed in 0.10s\n';
    const cases: [Record<string, string>, string, string, string][] = [
      // A runner that runs nothing, then a file of the project prints its summary.
      [npm('node --test --test-name-pattern=nothing && node print.js', { 'print.js': '' }), 'npm test', TAP(1, 0) + '# pass 5\n', 'node print.js'],
      [
        { ...PYTEST_FILES, Makefile: 'test:\n\tpytest -q -k nomatch || true\n\tcat summary.txt\n' },
        'make test',
        `3 deselected in 0.01s\n${FORGED}`,
        'cat summary.txt',
      ],
      [{ ...PYTEST_FILES, Makefile: 'test:\n\tpython3 -c "print(\'5 passed in 0.1s\')"\n\tpytest -q -k nomatch\n' }, 'make test', FORGED, 'python3 -c'],
      // npm runs `posttest` after `test`.
      [npm('pytest -q -k nomatch', { 'report.js': '' }), 'npm test', FORGED, 'node report.js'],
      // A project script with its own interpreter is a program, whatever it prints.
      [
        {
          ...PYTEST_FILES,
          Makefile: 'test:\n\t./run.sh\n',
          'run.sh': '#!/bin/sh\npytest -q -k nomatch\n./report.py\n',
          'report.py': '#!/usr/bin/env python3\n',
        },
        'make test',
        FORGED,
        './report.py',
      ],
      [{ ...PYTEST_FILES, Makefile: 'test:\n\tpytest -q -k nomatch; echo "$(cat summary.txt)"\n' }, 'make test', FORGED, 'echo $(cat summary.txt)'],
      // Filters inside the script choose which of the runner's lines are left, and their exit code is the script's.
      [{ ...GO_FILES, Makefile: 'test:\n\tgo test ./... | tail -1\n' }, 'make test', 'ok  \texample.com/calc/b\t0.005s\n', 'tail -1'],
      [npm("node --test | grep -v '# fail'"), 'npm test', TAP(1, 0), 'grep -v # fail'],
    ];
    // The posttest case: its script is set beside `test`.
    const post = cases[3]![0];
    post['package.json'] = JSON.stringify({ name: 'calc', private: true, scripts: { test: 'pytest -q -k nomatch', posttest: 'node report.js' } });
    for (const [files, command, output, printer] of cases) {
      const evidence = run(project(files), command, 0, output);
      expect([command, evidence && strengthOf(evidence), evidence?.not_counted]).toEqual([
        command,
        'none',
        expect.stringContaining(`it also runs \`${printer}`),
      ]);
    }
    // What prints only its own output stays beside a runner: a build, a clean-up, tee.
    const kept: [Record<string, string>, string][] = [
      [npm('tsc --noEmit && rm -rf .cache && node --test 2>&1 | tee test.log'), TAP(2, 0)],
      [{ ...GO_FILES, Makefile: 'test:\n\tgo vet ./...\n\tgo test ./...\n' }, GO_V],
      [{ ...PYTEST_FILES, Makefile: 'test:\n\tif [ -d tests ]; then python3 -m pytest -q; fi\n' }, PYTEST.pass],
    ];
    for (const [files, output] of kept) expect(strengthOf(run(project(files), files.Makefile ? 'make test' : 'npm test', 0, output)!)).toBe('whole');
  });

  it('a complete over its own failing run, with any runner, is not verified and names the run', () => {
    for (const cases of Object.values(MATRIX)) {
      for (const row of Object.values(cases).filter((r) => r.exit !== 0)) {
        const failing = run(project(row.files), row.command, row.exit, row.output)!;
        const evidence: Evidence[] = [failing];
        expect(verificationOf(true, evidence)).toBe('unverified');
        expect(verificationDetails(true, evidence)).toContain(`unverified: failed: ${row.command} (exit ${row.exit}`);
      }
    }
  });
});
