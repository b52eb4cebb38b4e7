/**
 * One summary parser per output format a test runner prints (run-summaries.ts says which runner
 * prints which). Each answers only from its runner's own summary lines and never throws; what it
 * cannot read is undefined, never a pass.
 */
import { combine, countsOf, counted, either, orNone, sumLines, type Counts, type Parser, type RunSummary } from './summary-counts.js';

const n = (value: string | undefined) => (value === undefined ? 0 : Number(value));

const PYTEST_ITEM = '\\d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|rerun|subtests passed|subtests failed)';
const PYTEST_LINE = new RegExp(`^=*\\s*((?:${PYTEST_ITEM})(?:, ${PYTEST_ITEM})*|no tests ran) in [\\d.]+s\\b`);

/** go's line for a package: `ok  \texample.com/calc\t0.002s` or `(cached)`, perhaps `[no tests to run]`. */
const GO_OK = /^ok\s+\S+\s+(?:\(cached\)|\d+(?:\.\d+)?s)(?:\s|$)/;

/** `tests 3`, `pass 3`, `fail 0` after `#` (TAP) or `ℹ` (spec): node's runner, mocha's and deno's TAP. */
const TAP_STAT = /^(?:#|ℹ) (pass|fail|cancelled|skipped|todo) (\d+)$/;

/** A top-level passing test named by a script file's path: node's runner reporting a file in which no test ran. */
const NODE_FILE_AS_TEST = /^(?:ok \d+ - |✔ )\S+\.[cm]?[jt]sx?(?: \([\d.]+m?s\))?$/;

/** The TAP totals (`# pass 3`, or the spec reporter's `ℹ pass 3`), less `files` passes that were no test. */
function tapStats(lines: readonly string[], files: number): RunSummary | undefined {
  const stats = { pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  let seen = false;
  for (const line of lines) {
    const m = TAP_STAT.exec(line);
    if (!m) continue;
    stats[m[1] as keyof typeof stats] += Number(m[2]);
    seen ||= m[1] === 'pass';
  }
  if (!seen) return undefined;
  return counted({ ran: Math.max(0, stats.pass - files), failed: stats.fail + stats.cancelled, notPassed: { skipped: stats.skipped, todo: stats.todo } });
}

/** jest's `1 skipped, 1 todo, 3 passed` and vitest's `3 passed | 1 skipped | 1 todo`: the left-out tests by kind. */
function jsCounts(list: string): Counts {
  const c = countsOf(list);
  return { ran: c.passed ?? 0, failed: c.failed ?? 0, notPassed: { skipped: c.skipped ?? 0, todo: c.todo ?? 0 } };
}

export const PARSERS = {
  pytest: (lines) =>
    sumLines(lines, PYTEST_LINE, (m) => {
      const c = countsOf(m[1]!);
      return {
        ran: c.passed ?? 0,
        failed: (c.failed ?? 0) + (c.error ?? 0) + (c.errors ?? 0),
        notPassed: { skipped: c.skipped ?? 0, xfailed: c.xfailed ?? 0, xpassed: c.xpassed ?? 0, deselected: c.deselected ?? 0 },
      };
    }),
  tap: (lines) => tapStats(lines, 0),
  /**
   * Under a name filter, node's runner counts a test file in which no test ran (every test left out
   * by `--test-name-pattern`, `--test-only`, `--test-skip-pattern`) as one passing test named by
   * its path: node 22 prints `1..0`, `ok 1 - test/add.test.js`, `# pass 1` (`✔ test/add.test.js
   * (40ms)` with the spec reporter). Such a file is no test that passed. The output alone cannot
   * tell it from a file of top-level assertions (reported the same way, and a test node ran), so
   * this reading is used only when the run had a name filter (`SummaryOptions`).
   */
  nodeTest: (lines) => tapStats(lines, lines.filter((l) => NODE_FILE_AS_TEST.test(l)).length),
  jest: (lines) =>
    orNone(
      lines,
      /^No tests found, exiting with code \d+/,
      sumLines(lines, /^Tests:\s+(.*\d+ total)$/, (m) => jsCounts(m[1]!)),
    ),
  vitest: (lines) =>
    orNone(
      lines,
      /^No test files found, exiting with code \d+/,
      sumLines(lines, /^\s*Tests\s{2,}((?:\d+ [a-z]+(?: \| )?)+) \(\d+\)$/, (m) => jsCounts(m[1]!)),
    ),
  /** jest's and vitest's `--json`: one object with the totals. */
  jsonTotals: (lines) =>
    sumLines(lines, /"numPassedTests":\s*(\d+)/, (m) => ({
      ran: Number(m[1]),
      failed: n(/"numFailedTests":\s*(\d+)/.exec(m.input)?.[1]),
      notPassed: { skipped: n(/"numPendingTests":\s*(\d+)/.exec(m.input)?.[1]), todo: n(/"numTodoTests":\s*(\d+)/.exec(m.input)?.[1]) },
    })),
  mocha: (lines) => {
    const passing = sumLines(lines, /^\s*(\d+) passing \(/, (m) => ({ ran: Number(m[1]), failed: 0 }));
    const failing = sumLines(lines, /^\s*(\d+) failing$/, (m) => ({ ran: 0, failed: Number(m[1]) }));
    if (failing?.outcome === 'failed') return failing;
    const pending = lines.reduce((sum, l) => sum + n(/^\s*(\d+) pending$/.exec(l)?.[1]), 0);
    return passing && pending > 0 ? combine([passing, { outcome: 'none', notPassed: { skipped: pending } }]) : passing;
  },
  /** mocha's `json` and `json-stream` reporters: `"passes": 3, "pending": 1, … "failures": 0`. */
  mochaJson: (lines) => {
    const text = lines.join('\n');
    const stats = /"passes":\s*(\d+)[\s\S]*?"failures":\s*(\d+)/.exec(text);
    if (!stats) return undefined;
    return counted({ ran: Number(stats[1]), failed: Number(stats[2]), notPassed: { skipped: n(/"pending":\s*(\d+)/.exec(text)?.[1]) } });
  },
  cargo: (lines) =>
    sumLines(lines, /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;(?: (\d+) ignored;)?(?: \d+ measured;)?(?: (\d+) filtered out;)?/, (m) => ({
      ran: Number(m[1]),
      failed: Number(m[2]),
      notPassed: { skipped: n(m[3]), deselected: n(m[4]) },
    })),
  go: (lines) => {
    let failed = false;
    let ran = false;
    let none = false;
    let passes = 0;
    let skips = 0;
    for (const line of lines) {
      if (/^(FAIL\b|--- FAIL: )/.test(line)) failed = true;
      else if (/^--- PASS: /.test(line)) passes++;
      else if (/^--- SKIP: /.test(line)) skips++;
      else if (GO_OK.test(line)) {
        if (/\[no tests to run\]/.test(line)) none = true;
        else ran = true;
      } else if (/^\?\s+\S+\s+\[no test files\]/.test(line)) none = true;
    }
    const notPassed = skips > 0 ? { notPassed: { skipped: skips } } : {};
    if (failed) return { outcome: 'failed' };
    // Without -v go prints no count: a package that ran is a pass of unknown size; with -v, every test skipped is none passed.
    if (ran && (passes > 0 || skips === 0)) return passes > 0 ? { outcome: 'passed', tests: passes, ...notPassed } : { outcome: 'passed' };
    return ran || none ? { outcome: 'none', ...notPassed } : undefined;
  },
  /** `go test -json`: one event per line; a test's `pass`, `skip`, any `fail`. */
  goJson: (lines) => {
    let seen = false;
    let passes = 0;
    let skips = 0;
    let failed = 0;
    for (const line of lines) {
      const m = /^\{.*"Action":"(pass|fail|skip)".*\}$/.exec(line);
      if (!m) continue;
      seen = true;
      const test = /"Test":"([^"]*)"/.exec(line)?.[1];
      if (m[1] === 'fail') failed++;
      else if (test !== undefined && !test.includes('/')) {
        if (m[1] === 'pass') passes++;
        else skips++;
      }
    }
    return seen ? counted({ ran: passes, failed, notPassed: { skipped: skips } }) : undefined;
  },
  deno: (lines) =>
    sumLines(lines, /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(.*)$/, (m) => ({
      ran: Number(m[1]),
      failed: Number(m[2]),
      notPassed: { skipped: n(/(\d+) ignored/.exec(m[3]!)?.[1]), deselected: n(/(\d+) filtered out/.exec(m[3]!)?.[1]) },
    })),
  dotnet: (lines) => {
    return orNone(
      lines,
      /No test (is available|matches the given testcase filter)/,
      either(
        sumLines(lines, /^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+), Passed:\s+(\d+)(?:, Skipped:\s+(\d+))?/, (m) => ({
          ran: Number(m[2]),
          failed: Number(m[1]),
          notPassed: { skipped: n(m[3]) },
        })),
        sumLines(lines, /^Test summary: total: \d+, failed: (\d+), succeeded: (\d+)(?:, skipped: (\d+))?/, (m) => ({
          ran: Number(m[2]),
          failed: Number(m[1]),
          notPassed: { skipped: n(m[3]) },
        })),
      ),
    );
  },
  mix: (lines) =>
    sumLines(lines, /^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, (\d+) failures?(.*)$/, (m) => {
      const rest = m[5]!;
      const excluded = n(/(\d+) excluded/.exec(rest)?.[1]);
      const skipped = n(/(\d+) skipped/.exec(rest)?.[1]);
      return {
        ran: n(m[1]) + n(m[2]) + n(m[3]) - excluded - skipped,
        failed: n(m[4]) + n(/(\d+) invalid/.exec(rest)?.[1]),
        notPassed: { skipped, deselected: excluded },
      };
    }),
  rspec: (lines) =>
    either(
      sumLines(lines, /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?/, (m) => ({
        ran: n(m[1]) - n(m[3]),
        failed: n(m[2]) + n(m[4]),
        notPassed: { skipped: n(m[3]) },
      })),
      sumLines(lines, /"example_count":(\d+),"failure_count":(\d+),"pending_count":(\d+)/, (m) => ({
        ran: n(m[1]) - n(m[3]),
        failed: n(m[2]),
        notPassed: { skipped: n(m[3]) },
      })),
    ),
  phpunit: (lines) => {
    const ok = sumLines(lines, /^OK \((\d+) tests?, /, (m) => ({ ran: Number(m[1]), failed: 0 }));
    return orNone(
      lines,
      /^No tests executed!/,
      either(
        ok,
        sumLines(lines, /^Tests: (\d+), Assertions: \d+(.*)$/, (m) => {
          const rest = m[2]!;
          const failed = n(/Failures: (\d+)/.exec(rest)?.[1]) + n(/Errors: (\d+)/.exec(rest)?.[1]);
          const skipped = n(/Skipped: (\d+)/.exec(rest)?.[1]) + n(/Incomplete: (\d+)/.exec(rest)?.[1]);
          return { ran: n(m[1]) - skipped, failed, notPassed: { skipped } };
        }),
      ),
    );
  },
  /** Surefire's totals (the lines without a class's `Time elapsed`). */
  maven: (lines) => {
    return orNone(
      lines,
      /No tests to run\./,
      sumLines(lines, /^\[(?:INFO|WARNING|ERROR)\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$/, (m) => ({
        ran: n(m[1]) - n(m[4]),
        failed: n(m[2]) + n(m[3]),
        notPassed: { skipped: n(m[4]) },
      })),
    );
  },
  /** Python's unittest: `Ran 3 tests in 0.001s`, then `OK (skipped=1, expected failures=1)` or `FAILED (failures=1)`; `NO TESTS RAN`. */
  unittest: (lines) => {
    const at = lines.findIndex((l) => /^Ran \d+ tests? in [\d.]+s$/.test(l));
    if (at === -1) return lines.some((l) => /^NO TESTS RAN\b/.test(l)) ? { outcome: 'none' } : undefined;
    const total = n(/^Ran (\d+)/.exec(lines[at]!)?.[1]);
    const verdict = lines.slice(at + 1).find((l) => /^(OK|FAILED|NO TESTS RAN)\b/.test(l));
    if (verdict === undefined) return undefined;
    if (verdict.startsWith('NO TESTS RAN')) return { outcome: 'none' };
    const field = (name: string) => n(new RegExp(`[(,]\\s*${name}=(\\d+)`).exec(verdict)?.[1]);
    const failed = field('failures') + field('errors') + field('unexpected successes');
    const notPassed = { skipped: field('skipped'), xfailed: field('expected failures') };
    return counted({ ran: total - failed - notPassed.skipped - notPassed.xfailed, failed, notPassed });
  },
  /** make itself: a target whose file is newer than its prerequisites runs nothing (a `test/` folder beside a target `test` not marked `.PHONY`). */
  make: (lines) => (lines.some((l) => /^make(?:\[\d+\])?: (?:Nothing to be done for '.*'|'.*' is up to date)\.$/.test(l)) ? { outcome: 'none' } : undefined),
  /** Gradle prints no count by default: a successful build whose test task had sources. */
  gradle: (lines) => {
    if (lines.some((l) => /^BUILD FAILED/.test(l))) return { outcome: 'failed' };
    if (!lines.some((l) => /^BUILD SUCCESSFUL/.test(l))) return undefined;
    const noSource = lines.some((l) => /^> Task :\S*test NO-SOURCE$/i.test(l));
    const ran = lines.some((l) => /^> Task :\S*test( UP-TO-DATE| FROM-CACHE)?$/i.test(l));
    return noSource && !ran ? { outcome: 'none' } : { outcome: 'passed' };
  },
} satisfies Record<string, Parser>;

export type Format = keyof typeof PARSERS;
