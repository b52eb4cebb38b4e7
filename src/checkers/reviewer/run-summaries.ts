/**
 * What a test runner printed about its run, read from its output: one summary parser per output
 * format (pytest's `3 passed in 0.1s`, cargo's `test result: ok. 3 passed;`, node:test's
 * `# pass 3` / `ℹ pass 3`, jest's `Tests: 3 passed, 3 total`, …) and the formats each runner
 * family prints. A parser answers only from its runner's own summary lines and never throws; what
 * it cannot read is undefined, never a pass. A summary can only take away from an exit code 0:
 * a run is passing only when its exit code is 0 too (run-evidence.ts).
 *
 * Only tests the runner calls passed count as passed. Skipped, todo, xfailed, xpassed and
 * deselected ones are counted apart (`notPassed`): pytest's `1 skipped, 1 xfailed, 2 deselected`,
 * node's `# skipped` and `# todo`, jest's and vitest's `skipped` and `todo` (a `-t` filter's
 * left-out tests among them), mocha's `pending`, cargo's `ignored` and `filtered out`, go's
 * `--- SKIP` (with `-v` or `-json`), unittest's `skipped=` and `expected failures=`.
 */
import type { NotPassed } from '../evidence.js';
import type { Family } from './runner-rules.js';

/** Tests ran and passed (`tests` when the runner says how many), some failed, or none ran (passed). */
export type RunSummary =
  { outcome: 'passed'; tests?: number; notPassed?: NotPassed } | { outcome: 'failed'; failed?: number } | { outcome: 'none'; notPassed?: NotPassed };

type Parser = (lines: readonly string[]) => RunSummary | undefined;

interface Counts {
  ran: number;
  failed: number;
  notPassed?: NotPassed;
}

/** A summary from counts: failures win, then tests that passed, else none passed. */
function counted({ ran, failed, notPassed }: Counts): RunSummary {
  if (failed > 0) return { outcome: 'failed', failed };
  const others = nonZero(notPassed);
  if (ran > 0) return { outcome: 'passed', tests: ran, ...(others ? { notPassed: others } : {}) };
  return others ? { outcome: 'none', notPassed: others } : { outcome: 'none' };
}

/** Every match of `pattern` over the lines, each summed into one summary; undefined when none matched. */
function sumLines(lines: readonly string[], pattern: RegExp, read: (m: RegExpExecArray) => Counts): RunSummary | undefined {
  let total: Counts = { ran: 0, failed: 0 };
  let seen = false;
  for (const line of lines) {
    const m = pattern.exec(line);
    if (!m) continue;
    total = addCounts(total, read(m));
    seen = true;
  }
  return seen ? counted(total) : undefined;
}

function addCounts(a: Counts, b: Counts): Counts {
  return { ran: a.ran + b.ran, failed: a.failed + b.failed, notPassed: addNotPassed(a.notPassed, b.notPassed) };
}

const KINDS = ['skipped', 'todo', 'xfailed', 'xpassed', 'deselected'] as const;

function addNotPassed(a: NotPassed | undefined, b: NotPassed | undefined): NotPassed | undefined {
  if (!a) return b;
  if (!b) return a;
  return Object.fromEntries(KINDS.map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
}

function nonZero(notPassed: NotPassed | undefined): NotPassed | undefined {
  if (!notPassed) return undefined;
  const kept = Object.fromEntries(KINDS.filter((k) => (notPassed[k] ?? 0) > 0).map((k) => [k, notPassed[k]]));
  return Object.keys(kept).length ? kept : undefined;
}

/** `1 failed, 2 passed` / `3 skipped | 1 passed` → counts by word. */
function countsOf(list: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of list.matchAll(/(\d+) ([a-z]+(?: [a-z]+)?)/g)) counts[m[2]!] = (counts[m[2]!] ?? 0) + Number(m[1]);
  return counts;
}

/** Two readings of one output (two formats a runner prints), combined. */
function either(a: RunSummary | undefined, b: RunSummary | undefined): RunSummary | undefined {
  return combine([a, b].filter((s): s is RunSummary => s !== undefined));
}

/** A summary together with the runner's own words for "no test ran" (a multi-project run may say both). */
function orNone(lines: readonly string[], noTests: RegExp, summary: RunSummary | undefined): RunSummary | undefined {
  return combine([...(summary ? [summary] : []), ...(lines.some((l) => noTests.test(l)) ? [{ outcome: 'none' as const }] : [])]);
}

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

const PARSERS = {
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

type Format = keyof typeof PARSERS;

/** The formats each runner prints (with the reporters its table allows). A command of no runner ccc knows has none to read. */
const FAMILY_FORMATS: Readonly<Record<Family, readonly Format[]>> = {
  'node-test': ['nodeTest'],
  jest: ['jest', 'jsonTotals'],
  vitest: ['vitest', 'jsonTotals'],
  mocha: ['mocha', 'mochaJson', 'tap'],
  deno: ['deno', 'tap'],
  pytest: ['pytest'],
  unittest: ['unittest'],
  go: ['go', 'goJson'],
  cargo: ['cargo'],
  libtest: ['cargo'],
  maven: ['maven'],
  gradle: ['gradle'],
  dotnet: ['dotnet'],
  mix: ['mix'],
  rspec: ['rspec'],
  phpunit: ['phpunit'],
  make: ['make'],
  opaque: [],
};

/**
 * The prefixes a workspace tool puts before each line of a package's output: pnpm's
 * `packages/a test: ` (a package's folder, then the script), turbo's `@mono/a:test: `, yarn's
 * `[@mono/a]: `. Taken off only when the same prefix begins several lines, so that a runner's own
 * labels (jest's `Test Suites: `, cargo's `test result: `) are left alone.
 */
const WORKSPACE_PREFIX = /^(?:[\w@.-]*\/[\w@./-]+ [\w:.-]+: |[\w@./-]+:[\w:.-]+: |\[[^\]\s]+\]: )/;
const PREFIXED_LINES = 3;

/** The output as lines a parser reads: colours, carriage-return redraws and workspace prefixes removed. */
export function outputLines(text: string): string[] {
  const plain = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  const lines = plain.split('\n').map((raw) => {
    const line = raw.replace(/\r$/, '');
    return line.slice(line.lastIndexOf('\r') + 1).trimEnd();
  });
  const counts = new Map<string, number>();
  for (const line of lines) {
    const prefix = WORKSPACE_PREFIX.exec(line)?.[0];
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  const prefixes = [...counts].filter(([, n]) => n >= PREFIXED_LINES).map(([prefix]) => prefix);
  if (prefixes.length === 0) return lines;
  return lines.map((line) => {
    const prefix = prefixes.find((p) => line.startsWith(p));
    return prefix ? line.slice(prefix.length) : line;
  });
}

export interface SummaryOptions {
  /**
   * node's runner ran with a name filter (`--test-name-pattern`, `--test-skip-pattern`,
   * `--test-only`): a file it reports as one passing test is a file whose tests the filter all left
   * out. Without one, such a file is a file of top-level assertions, which node runs as its test.
   */
  nodeNameFilter?: boolean;
}

/**
 * What the runners of `families` printed about their run (a `make test` that runs pytest reads
 * pytest's summary and make's own), combined: a failure anywhere is a failure, else tests that
 * passed count, else none passed. Undefined when no summary is found. Only the formats of the
 * runners the command runs are read: a summary printed by hand (`echo '5 passed in 0.1s'`) in a
 * command that runs node's runner is not node's summary.
 */
export function readSummary(families: Family | readonly Family[], text: string, options: SummaryOptions = {}): RunSummary | undefined {
  const formats = [
    ...new Set(
      (typeof families === 'string' ? [families] : families)
        .flatMap((f) => FAMILY_FORMATS[f] ?? [])
        .map((format) => (format === 'nodeTest' && !options.nodeNameFilter ? 'tap' : format)),
    ),
  ];
  const lines = outputLines(text);
  return combine(formats.map((format) => PARSERS[format](lines)).filter((s): s is RunSummary => s !== undefined));
}

function combine(summaries: readonly RunSummary[]): RunSummary | undefined {
  if (summaries.length === 0) return undefined;
  const failed = summaries.filter((s) => s.outcome === 'failed');
  if (failed.length > 0) {
    const counts = failed.map((s) => s.failed);
    return counts.every((c) => c !== undefined) ? { outcome: 'failed', failed: counts.reduce((a, b) => a + b, 0) } : { outcome: 'failed' };
  }
  const notPassed = nonZero(
    summaries.reduce<NotPassed | undefined>((sum, s) => addNotPassed(sum, s.outcome === 'failed' ? undefined : s.notPassed), undefined),
  );
  const also = notPassed ? { notPassed } : {};
  const passed = summaries.filter((s) => s.outcome === 'passed');
  if (passed.length === 0) return { outcome: 'none', ...also };
  const counts = passed.map((s) => s.tests);
  return counts.every((c) => c !== undefined) ? { outcome: 'passed', tests: counts.reduce((a, b) => a + b, 0), ...also } : { outcome: 'passed', ...also };
}
