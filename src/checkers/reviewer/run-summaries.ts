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
import type { Family } from './runner-rules.js';
import { combine, type RunSummary } from './summary-counts.js';
import { PARSERS, type Format } from './summary-parsers.js';

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
