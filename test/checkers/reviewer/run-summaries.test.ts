/** Each runner's summary read from its output: tests that ran and passed, a failure, or no test at all; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSummary } from '../../../src/checkers/reviewer/run-summaries.js';
import type { RunSummary } from '../../../src/checkers/reviewer/summary-counts.js';
import type { Family } from '../../../src/checkers/reviewer/runner-rules.js';

interface Sample {
  passed: string;
  tests: number | undefined;
  failed: string;
  none: string;
}

// What each runner prints (node 20, pytest 9, vitest and cargo copied from runs on this machine; the others from their formats).
const SAMPLES: Partial<Record<Family, Sample>> = {
  pytest: {
    passed: '.s                                  [100%]\n1 passed, 1 skipped in 1.33s\n',
    tests: 1,
    failed: '============ 1 failed, 2 passed in 0.05s ============',
    none: '\n2 deselected in 1.05s\n',
  },
  'node-test': {
    passed: 'ok 1 - a\n1..2\n# tests 2\n# suites 0\n# pass 1\n# fail 0\n# cancelled 0\n# skipped 1\n# todo 0\n',
    tests: 1,
    failed: 'ℹ tests 2\nℹ pass 1\nℹ fail 1\nℹ cancelled 0\n',
    none: 'ok 1 - a # SKIP\n1..2\n# tests 2\n# pass 0\n# fail 0\n# skipped 2\n',
  },
  jest: {
    passed: 'PASS src/a.test.js\nTest Suites: 1 passed, 1 total\nTests:       1 skipped, 3 passed, 4 total\nSnapshots:   0 total\n',
    tests: 3,
    failed: 'Tests:       1 failed, 3 passed, 4 total\n',
    none: 'No tests found, exiting with code 0\nRun with `--passWithNoTests` to exit with code 0\n',
  },
  vitest: {
    passed: '\n Test Files  1 passed (1)\n      Tests  1 passed | 1 skipped (2)\n   Start at  21:39:06\n',
    tests: 1,
    failed: ' Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n',
    none: ' Test Files  1 skipped (1)\n      Tests  2 skipped (2)\n',
  },
  mocha: {
    passed: '  adds\n    ✔ one\n\n  3 passing (5ms)\n  1 pending\n',
    tests: 3,
    failed: '  2 passing (5ms)\n  1 failing\n\n  1) adds\n',
    none: '\n  0 passing (1ms)\n',
  },
  cargo: {
    passed:
      'running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nrunning 2 tests\ntest adds ... ok\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n',
    tests: 2,
    failed: 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n',
    none: 'running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s\n',
  },
  go: {
    passed:
      '=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestSub\n--- PASS: TestSub (0.00s)\nPASS\nok  \texample.com/calc\t0.002s\n?   \texample.com/calc/cmd\t[no test files]\n',
    tests: 2,
    failed: '--- FAIL: TestSub (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.002s\n',
    none: 'ok  \texample.com/calc\t0.001s [no tests to run]\n?   \texample.com/calc/cmd\t[no test files]\n',
  },
  deno: {
    passed: 'ok | 3 passed | 0 failed (12ms)\n',
    tests: 3,
    failed: 'FAILED | 2 passed | 1 failed (12ms)\n',
    none: 'ok | 0 passed | 0 failed | 3 filtered out (2ms)\n',
  },
  dotnet: {
    passed: 'Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     3, Duration: 12 ms - Calc.Tests.dll (net8.0)\n',
    tests: 3,
    failed: 'Failed!  - Failed:     1, Passed:     2, Skipped:     0, Total:     3, Duration: 12 ms\n',
    none: 'No test matches the given testcase filter `Name=x` in /p/bin/Calc.Tests.dll\n',
  },
  mix: {
    passed: 'Finished in 0.03 seconds (0.01s async, 0.02s sync)\n1 doctest, 3 tests, 0 failures\n',
    tests: 4,
    failed: '3 tests, 1 failure\n',
    none: '3 tests, 0 failures, 3 excluded\n',
  },
  rspec: {
    passed: 'Finished in 0.01 seconds (files took 0.1 seconds to load)\n3 examples, 0 failures, 1 pending\n',
    tests: 2,
    failed: '3 examples, 1 failure\n',
    none: '0 examples, 0 failures\n',
  },
  phpunit: {
    passed: 'OK (3 tests, 5 assertions)\n',
    tests: 3,
    failed: 'FAILURES!\nTests: 3, Assertions: 5, Failures: 1.\n',
    none: 'No tests executed!\n',
  },
  maven: {
    passed:
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in CalcTest\n[INFO] \n[INFO] Results:\n[INFO] \n[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1\n[INFO] BUILD SUCCESS\n',
    tests: 2,
    failed: '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE\n',
    none: '[INFO] No tests to run.\n[INFO] BUILD SUCCESS\n',
  },
  gradle: {
    passed: '> Task :compileJava\n> Task :test\n\nBUILD SUCCESSFUL in 3s\n4 actionable tasks: 4 executed\n',
    tests: undefined,
    failed: '> Task :test FAILED\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 2s\n',
    none: '> Task :test NO-SOURCE\n\nBUILD SUCCESSFUL in 1s\n',
  },
};

const passed = (tests: number | undefined): RunSummary => (tests === undefined ? { outcome: 'passed' } : { outcome: 'passed', tests });
const families = Object.keys(SAMPLES) as Family[];

describe("each runner's summary", () => {
  for (const family of families) {
    const sample = SAMPLES[family]!;
    it(`${family}: tests that passed with their number, a failure, none ran; the same read through make`, () => {
      expect(readSummary(family, sample.passed)).toMatchObject(passed(sample.tests));
      expect(readSummary(family, sample.failed)).toMatchObject({ outcome: 'failed' });
      expect(readSummary(family, sample.none)).toMatchObject({ outcome: 'none' });
      const throughMake = `make[1]: Entering directory '/p'\n${sample.passed}make[1]: Leaving directory '/p'\n`;
      expect(readSummary([family, 'make'], throughMake)).toMatchObject(passed(sample.tests));
      expect(readSummary([family, 'make'], sample.failed)).toMatchObject({ outcome: 'failed' });
      // A command of no runner ccc knows reads no runner's summary, whatever it printed.
      expect(readSummary('opaque', sample.passed)).toBeUndefined();
    });
  }

  it("reads through the workspace tools' line prefixes (pnpm -r, turbo, yarn foreach), and leaves a runner's own labels alone", () => {
    const tap = (prefix: string, pass: number) => ['# tests', '# pass', '# fail 0'].map((l, i) => `${prefix}${i < 2 ? `${l} ${pass}` : l}`).join('\n');
    expect(readSummary('node-test', `${tap('packages/b test: ', 1)}\npackages/b test: Done\n${tap('packages/a test: ', 2)}\n`)).toEqual(passed(3));
    expect(readSummary('node-test', `${tap('@mono/a:test: ', 2)}\n`)).toEqual(passed(2));
    expect(readSummary('node-test', `${tap('[@mono/a]: ', 2)}\n`)).toEqual(passed(2));
    expect(readSummary('jest', 'Test Suites: 1 passed, 1 total\nTests:       2 passed, 2 total\nSnapshots:   0 total\n')).toEqual(passed(2));
    const cargo = 'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n';
    expect(readSummary('cargo', cargo.repeat(3))).toEqual(passed(3));
  });

  it('reads through colours, carriage-return redraws and Windows line ends; unrelated output is no summary', () => {
    expect(readSummary('pytest', '\x1b[32m\x1b[1m3 passed\x1b[0m\x1b[32m in 0.01s\x1b[0m\r\n')).toEqual(passed(3));
    expect(readSummary('node-test', 'running…\r# pass 4\n# fail 0\n')).toEqual(passed(4));
    expect(readSummary('pytest', 'all good, 3 passed\n')).toBeUndefined();
    expect(readSummary('make', 'checking all\nquick checks pass\n')).toBeUndefined();
    // A make target named like a folder beside it (`test/`) and not .PHONY runs nothing.
    expect(readSummary('make', "make: 'test' is up to date.\n")).toEqual({ outcome: 'none' });
    expect(readSummary('make', "make[1]: Nothing to be done for 'check'.\n")).toEqual({ outcome: 'none' });
    // TAP's `ok 1 - name` is not go's `ok  <package>  <time>`.
    expect(readSummary('go', SAMPLES['node-test']!.none)).toBeUndefined();
  });

  it('the installed jest 30, vitest 3 and go 1.19, as they print a filter that selects nothing, no test file, and a pass', () => {
    const jestSkipped =
      'Test Suites: 1 skipped, 0 of 1 total\nTests:       2 skipped, 2 total\nSnapshots:   0 total\nTime:        1.417 s, estimated 3 s\nRan all test suites with tests matching "nomatch".\n';
    expect(readSummary('jest', jestSkipped)).toEqual({ outcome: 'none', notPassed: { skipped: 2 } });
    expect(readSummary('jest', 'No tests found, exiting with code 0\n')).toEqual({ outcome: 'none' });
    const vitestSkipped =
      '\n RUN  v3.2.7 /tmp/p\n\n ↓ test/add.test.js (2 tests | 2 skipped)\n\n Test Files  1 skipped (1)\n      Tests  2 skipped (2)\n   Start at  10:23:38\n';
    expect(readSummary('vitest', vitestSkipped)).toEqual({ outcome: 'none', notPassed: { skipped: 2 } });
    expect(readSummary('vitest', '\n RUN  v3.2.7 /tmp/p\n\nNo test files found, exiting with code 0\n\nfilter: nofile\n')).toEqual({ outcome: 'none' });
    expect(readSummary('vitest', ' ✓ test/add.test.js (2 tests) 17ms\n\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n')).toEqual(passed(2));
    expect(readSummary('go', 'ok  \texample.com/calc\t0.054s [no tests to run]\n')).toEqual({ outcome: 'none' });
    expect(readSummary('go', 'ok  \texample.com/calc\t(cached)\n')).toEqual(passed(undefined));
  });

  it("node 22's runner under a name filter: a file in which no test ran is reported as one passing test named by its path, and is none", () => {
    const filtered = { nodeNameFilter: true };
    const totals = (prefix: string, pass: number, fail = 0, skipped = 0) =>
      ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']
        .map((k) => `${prefix} ${k} ${{ tests: pass + fail + skipped, suites: 0, pass, fail, cancelled: 0, skipped, todo: 0 }[k]}`)
        .join('\n');
    const yaml = "  ---\n  duration_ms: 50.716188\n  type: 'test'\n  ...\n";
    // node 22.17, `node --test --test-name-pattern=nomatch` (also `--test-only`, `--test-skip-pattern=.`): TAP, then spec.
    const tapNoMatch = `TAP version 13\n1..0\n# Subtest: test/add.test.js\nok 1 - test/add.test.js\n${yaml}1..1\n${totals('#', 1)}\n# duration_ms 60.69\n`;
    expect(readSummary('node-test', tapNoMatch, filtered)).toEqual({ outcome: 'none' });
    const specNoMatch = `✔ test/add.test.js (43.509914ms)\n✔ test/suite.test.js (39.410584ms)\n${totals('ℹ', 2)}\nℹ duration_ms 90.46\n`;
    expect(readSummary('node-test', specNoMatch, filtered)).toEqual({ outcome: 'none' });
    // node 22.17, `--test-name-pattern=mul` over a file of its own and one without a match: the one test that ran.
    const specSome = `✔ test/add.test.js (41.359644ms)\n▶ math\n  ✔ mul (0.533163ms)\n✔ math (1.416627ms)\n${totals('ℹ', 2)}\n`;
    expect(readSummary('node-test', specSome, filtered)).toEqual(passed(1));
    const tapSome = `TAP version 13\n1..0\n# Subtest: test/add.test.js\nok 1 - test/add.test.js\n${yaml}# Subtest: math\n    # Subtest: mul\n    ok 1 - mul\n    1..1\nok 2 - math\n  type: 'suite'\n1..2\n${totals('#', 2)}\n`;
    expect(readSummary('node-test', tapSome, filtered)).toEqual(passed(1));
    // Without a filter, a file node reports as one passing test is a file of top-level assertions that ran (node 20 by its absolute path).
    expect(readSummary('node-test', tapNoMatch)).toEqual(passed(1));
    expect(
      readSummary(
        'node-test',
        `ok 1 - adds\nok 2 - zero\n# Subtest: /tmp/p/test/asserts.test.js\nok 2 - /tmp/p/test/asserts.test.js\n1..3\n${totals('#', 3)}\n`,
      ),
    ).toEqual(passed(3));
    // A file that fails to load is a failure (both versions), and a test named otherwise counts.
    expect(readSummary('node-test', `ok 1 - adds\nnot ok 2 - test/bad.test.js\n1..2\n${totals('#', 1, 1)}\n`)).toEqual({ outcome: 'failed', failed: 1 });
    expect(readSummary('node-test', `✖ test/bad.test.js (183.06ms)\n${totals('ℹ', 0, 1)}\n`)).toEqual({ outcome: 'failed', failed: 1 });
    expect(readSummary('node-test', `ok 1 - parses add.test.js files\n${totals('#', 1)}\n`)).toEqual(passed(1));
    // Through a workspace tool's prefixes (pnpm -r).
    const pnpm = tapNoMatch
      .trimEnd()
      .split('\n')
      .map((l) => `packages/math test: ${l}`)
      .join('\n');
    expect(readSummary('node-test', pnpm, filtered)).toEqual({ outcome: 'none' });
  });

  it('jest and vitest --json, go -json, mocha json', () => {
    expect(readSummary('jest', '{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTestSuites":1,"numPassedTests":2,"numTotalTests":2}')).toEqual(passed(2));
    expect(readSummary('vitest', '{"numTotalTests":3,"numPassedTests":2,"numFailedTests":1}')).toEqual({ outcome: 'failed', failed: 1 });
    expect(
      readSummary(
        'go',
        '{"Action":"run","Test":"TestA"}\n{"Action":"pass","Package":"p","Test":"TestA"}\n{"Action":"pass","Package":"p","Test":"TestA/sub"}\n{"Action":"pass","Package":"p"}',
      ),
    ).toEqual(passed(1));
    expect(readSummary('mocha', '{\n  "stats": {\n    "tests": 2,\n    "passes": 2,\n    "pending": 0,\n    "failures": 0\n  }\n}')).toEqual(passed(2));
  });
});

/** Lines a runner's output may hold around its summary, and other runners' summaries. */
const noise = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'ok 1 - adds',
    '=== RUN   TestA',
    'PASS',
    'running 3 tests',
    '> calc@1.0.0 test',
    ...families.flatMap((f) => [SAMPLES[f]!.passed, SAMPLES[f]!.none]),
  ),
);

/** What each runner prints about tests that did not pass (pytest 9, node 20, jest 30, vitest 3, mocha 11, cargo 1.95, go 1.19, unittest 3.11), and how it is counted. */
const NOT_PASSED: Array<[Family, string, RunSummary]> = [
  ['pytest', '1 passed, 1 skipped, 1 deselected, 1 xfailed in 0.11s', { outcome: 'passed', tests: 1, notPassed: { skipped: 1, xfailed: 1, deselected: 1 } }],
  ['pytest', '1 skipped, 2 xfailed, 1 xpassed in 0.13s', { outcome: 'none', notPassed: { skipped: 1, xfailed: 2, xpassed: 1 } }],
  ['node-test', '# tests 4\n# pass 1\n# fail 0\n# cancelled 0\n# skipped 2\n# todo 1\n', { outcome: 'passed', tests: 1, notPassed: { skipped: 2, todo: 1 } }],
  ['jest', 'Tests:       1 skipped, 1 todo, 2 passed, 4 total', { outcome: 'passed', tests: 2, notPassed: { skipped: 1, todo: 1 } }],
  ['vitest', '      Tests  2 passed | 1 skipped | 1 todo (4)', { outcome: 'passed', tests: 2, notPassed: { skipped: 1, todo: 1 } }],
  ['mocha', '  1 passing (3ms)\n  2 pending\n', { outcome: 'passed', tests: 1, notPassed: { skipped: 2 } }],
  [
    'cargo',
    'test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 2 filtered out; finished in 0.00s',
    { outcome: 'passed', tests: 1, notPassed: { skipped: 1, deselected: 2 } },
  ],
  [
    'go',
    '--- PASS: TestAdd (0.00s)\n--- SKIP: TestSkipped (0.00s)\nPASS\nok  \texample.com/calc\t0.012s\n',
    { outcome: 'passed', tests: 1, notPassed: { skipped: 1 } },
  ],
  ['unittest', 'Ran 4 tests in 0.000s\n\nOK (skipped=1, expected failures=1)\n', { outcome: 'passed', tests: 2, notPassed: { skipped: 1, xfailed: 1 } }],
  ['unittest', 'Ran 4 tests in 0.000s\n\nFAILED (failures=1, skipped=1, expected failures=1)\n', { outcome: 'failed', failed: 1 }],
  ['unittest', 'Ran 0 tests in 0.000s\n\nOK\n', { outcome: 'none' }],
];

describe('tests that did not pass are counted apart', () => {
  it.each(NOT_PASSED)('%s: %j', (family, text, expected) => {
    expect(readSummary(family, text)).toEqual(expected);
  });
});

describe('fuzzed', () => {
  it('never throws, and only ever answers one of the three outcomes', () => {
    fc.assert(
      fc.property(fc.constantFrom<Family>(...families, 'make', 'opaque', 'libtest'), fc.array(noise, { maxLength: 12 }), (family, lines) => {
        const summary = readSummary(family, lines.join('\n'));
        expect(summary === undefined || ['passed', 'failed', 'none'].includes(summary.outcome)).toBe(true);
        if (summary?.outcome === 'passed' && summary.tests !== undefined) expect(summary.tests).toBeGreaterThan(0);
      }),
    );
  });

  it('never counts a failure as a pass: a failing summary anywhere in the output is a failure', () => {
    fc.assert(
      fc.property(fc.constantFrom(...families), fc.array(noise, { maxLength: 8 }), fc.array(noise, { maxLength: 8 }), (family, before, after) => {
        const text = [...before, SAMPLES[family]!.failed, ...after].join('\n');
        expect(readSummary(family, text)).toMatchObject({ outcome: 'failed' });
        expect(readSummary([family, 'make'], text)).toMatchObject({ outcome: 'failed' });
      }),
    );
  });

  it('never counts a run of no test as a pass', () => {
    fc.assert(
      fc.property(fc.constantFrom(...families), fc.array(fc.string({ maxLength: 40 }), { maxLength: 8 }), (family, around) => {
        const text = [...around, SAMPLES[family]!.none, ...around].join('\n');
        expect(readSummary(family, text)?.outcome).not.toBe('passed');
      }),
    );
  });
});
