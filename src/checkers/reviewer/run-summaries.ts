/**
 * What a test runner printed about its run, read from its output: one summary parser per output
 * format (pytest's `3 passed in 0.1s`, cargo's `test result: ok. 3 passed;`, node:test's
 * `# pass 3` / `ℹ pass 3`, jest's `Tests: 3 passed, 3 total`, …) and the formats each runner
 * family prints. A parser answers only from its runner's own summary lines and never throws; what
 * it cannot read is undefined, never a pass. A summary can only take away from an exit code 0:
 * a run is passing only when its exit code is 0 too (run-evidence.ts).
 */
import type { Family } from './runner-rules.js';

/** Tests ran and passed (`tests` when the runner says how many), some failed, or none ran. */
export type RunSummary = { outcome: 'passed'; tests?: number } | { outcome: 'failed' } | { outcome: 'none' };

type Parser = (lines: readonly string[]) => RunSummary | undefined;

/** A summary from counts: failures win, then tests that ran, else none ran. */
function counted(ran: number, failed: number): RunSummary {
  if (failed > 0) return { outcome: 'failed' };
  return ran > 0 ? { outcome: 'passed', tests: ran } : { outcome: 'none' };
}

/** Every match of `pattern` over the lines, each summed into one summary; undefined when none matched. */
function sumLines(lines: readonly string[], pattern: RegExp, read: (m: RegExpExecArray) => { ran: number; failed: number }): RunSummary | undefined {
  let ran = 0;
  let failed = 0;
  let seen = false;
  for (const line of lines) {
    const m = pattern.exec(line);
    if (!m) continue;
    const counts = read(m);
    ran += counts.ran;
    failed += counts.failed;
    seen = true;
  }
  return seen ? counted(ran, failed) : undefined;
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
const TAP_STAT = /^(?:#|ℹ) (pass|fail|cancelled) (\d+)$/;

const PARSERS = {
  pytest: (lines) =>
    sumLines(lines, PYTEST_LINE, (m) => {
      const c = countsOf(m[1]!);
      return { ran: (c.passed ?? 0) + (c.xfailed ?? 0) + (c.xpassed ?? 0), failed: (c.failed ?? 0) + (c.error ?? 0) + (c.errors ?? 0) };
    }),
  tap: (lines) => {
    const stats = { pass: 0, fail: 0, cancelled: 0 };
    let seen = false;
    for (const line of lines) {
      const m = TAP_STAT.exec(line);
      if (!m) continue;
      stats[m[1] as keyof typeof stats] += Number(m[2]);
      seen ||= m[1] === 'pass';
    }
    return seen ? counted(stats.pass, stats.fail + stats.cancelled) : undefined;
  },
  jest: (lines) => {
    return orNone(
      lines,
      /^No tests found, exiting with code \d+/,
      sumLines(lines, /^Tests:\s+(.*\d+ total)$/, (m) => {
        const c = countsOf(m[1]!);
        return { ran: c.passed ?? 0, failed: c.failed ?? 0 };
      }),
    );
  },
  vitest: (lines) => {
    return orNone(
      lines,
      /^No test files found, exiting with code \d+/,
      sumLines(lines, /^\s*Tests\s{2,}((?:\d+ [a-z]+(?: \| )?)+) \(\d+\)$/, (m) => {
        const c = countsOf(m[1]!);
        return { ran: c.passed ?? 0, failed: c.failed ?? 0 };
      }),
    );
  },
  /** jest's and vitest's `--json`: one object with the totals. */
  jsonTotals: (lines) =>
    sumLines(lines, /"numPassedTests":\s*(\d+)/, (m) => ({ ran: Number(m[1]), failed: n(/"numFailedTests":\s*(\d+)/.exec(m.input)?.[1]) })),
  mocha: (lines) => {
    const passing = sumLines(lines, /^\s*(\d+) passing \(/, (m) => ({ ran: Number(m[1]), failed: 0 }));
    const failing = sumLines(lines, /^\s*(\d+) failing$/, (m) => ({ ran: 0, failed: Number(m[1]) }));
    return failing?.outcome === 'failed' ? failing : passing;
  },
  /** mocha's `json` and `json-stream` reporters: `"passes": 3, … "failures": 0`. */
  mochaJson: (lines) => {
    const text = lines.join('\n');
    const stats = /"passes":\s*(\d+)[\s\S]*?"failures":\s*(\d+)/.exec(text);
    return stats ? counted(Number(stats[1]), Number(stats[2])) : undefined;
  },
  cargo: (lines) => sumLines(lines, /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;/, (m) => ({ ran: Number(m[1]), failed: Number(m[2]) })),
  go: (lines) => {
    let failed = false;
    let ran = false;
    let none = false;
    let passes = 0;
    for (const line of lines) {
      if (/^(FAIL\b|--- FAIL: )/.test(line)) failed = true;
      else if (/^--- PASS: /.test(line)) passes++;
      else if (GO_OK.test(line)) {
        if (/\[no tests to run\]/.test(line)) none = true;
        else ran = true;
      } else if (/^\?\s+\S+\s+\[no test files\]/.test(line)) none = true;
    }
    if (failed) return { outcome: 'failed' };
    if (ran) return passes > 0 ? { outcome: 'passed', tests: passes } : { outcome: 'passed' };
    return none ? { outcome: 'none' } : undefined;
  },
  /** `go test -json`: one event per line; a test's `pass`, any `fail`. */
  goJson: (lines) => {
    let seen = false;
    let passes = 0;
    let failed = 0;
    for (const line of lines) {
      const m = /^\{.*"Action":"(pass|fail|skip)".*\}$/.exec(line);
      if (!m) continue;
      seen = true;
      const test = /"Test":"([^"]*)"/.exec(line)?.[1];
      if (m[1] === 'fail') failed++;
      else if (m[1] === 'pass' && test !== undefined && !test.includes('/')) passes++;
    }
    return seen ? counted(passes, failed) : undefined;
  },
  deno: (lines) => sumLines(lines, /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/, (m) => ({ ran: Number(m[1]), failed: Number(m[2]) })),
  dotnet: (lines) => {
    return orNone(
      lines,
      /No test (is available|matches the given testcase filter)/,
      either(
        sumLines(lines, /^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+), Passed:\s+(\d+)/, (m) => ({ ran: Number(m[2]), failed: Number(m[1]) })),
        sumLines(lines, /^Test summary: total: \d+, failed: (\d+), succeeded: (\d+)/, (m) => ({ ran: Number(m[2]), failed: Number(m[1]) })),
      ),
    );
  },
  mix: (lines) =>
    sumLines(lines, /^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, (\d+) failures?(.*)$/, (m) => {
      const rest = m[5]!;
      const left = n(/(\d+) excluded/.exec(rest)?.[1]) + n(/(\d+) skipped/.exec(rest)?.[1]);
      return { ran: n(m[1]) + n(m[2]) + n(m[3]) - left, failed: n(m[4]) + n(/(\d+) invalid/.exec(rest)?.[1]) };
    }),
  rspec: (lines) =>
    either(
      sumLines(lines, /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?/, (m) => ({
        ran: n(m[1]) - n(m[3]),
        failed: n(m[2]) + n(m[4]),
      })),
      sumLines(lines, /"example_count":(\d+),"failure_count":(\d+),"pending_count":(\d+)/, (m) => ({ ran: n(m[1]) - n(m[3]), failed: n(m[2]) })),
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
          return { ran: n(m[1]) - n(/Skipped: (\d+)/.exec(rest)?.[1]) - n(/Incomplete: (\d+)/.exec(rest)?.[1]), failed };
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
      })),
    );
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

/** The formats each runner prints (with the reporters its table allows); make and opaque commands: any. */
const FAMILY_FORMATS: Readonly<Record<Family, readonly Format[] | 'any'>> = {
  'node-test': ['tap'],
  jest: ['jest', 'jsonTotals'],
  vitest: ['vitest', 'jsonTotals'],
  mocha: ['mocha', 'mochaJson', 'tap'],
  deno: ['deno', 'tap'],
  pytest: ['pytest'],
  go: ['go', 'goJson'],
  cargo: ['cargo'],
  libtest: ['cargo'],
  maven: ['maven'],
  gradle: ['gradle'],
  dotnet: ['dotnet'],
  mix: ['mix'],
  rspec: ['rspec'],
  phpunit: ['phpunit'],
  make: 'any',
  opaque: 'any',
};

/** The output as lines a parser reads: colours and carriage-return redraws removed. */
function outputLines(text: string): string[] {
  const plain = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  return plain.split('\n').map((raw) => {
    const line = raw.replace(/\r$/, '');
    return line.slice(line.lastIndexOf('\r') + 1).trimEnd();
  });
}

/**
 * What `family`'s runner printed about its run; for make and opaque commands the summaries of
 * any runner found in the output (a `make test` running pytest), combined: a failure anywhere
 * is a failure, else tests that ran count, else none ran. Undefined when no summary is found.
 */
export function readSummary(family: Family, text: string): RunSummary | undefined {
  const formats = FAMILY_FORMATS[family] ?? 'any';
  const lines = outputLines(text);
  const found = (formats === 'any' ? (Object.keys(PARSERS) as Format[]) : formats)
    .map((format) => PARSERS[format](lines))
    .filter((s): s is RunSummary => s !== undefined);
  return combine(found);
}

export function combine(summaries: readonly RunSummary[]): RunSummary | undefined {
  if (summaries.length === 0) return undefined;
  if (summaries.some((s) => s.outcome === 'failed')) return { outcome: 'failed' };
  const passed = summaries.filter((s): s is { outcome: 'passed'; tests?: number } => s.outcome === 'passed');
  if (passed.length === 0) return { outcome: 'none' };
  const counts = passed.map((s) => s.tests);
  return counts.every((c) => c !== undefined) ? { outcome: 'passed', tests: counts.reduce((a, b) => a + b, 0) } : { outcome: 'passed' };
}
