/**
 * The lines of a failing test run that say what failed, for a person reading a CI log or the agent
 * reading its feedback: a runner prints its failures in the middle of its output (pytest's `E` lines
 * and its `FAILED …` summary, jest's `●` blocks, cargo's `panicked at`), between a header and a
 * summary that say nothing about them, so neither the first nor the last lines of the output show
 * them. Each rule is a runner's own marker, read from its real output (test/checkers/fixtures/
 * failing-runs/); colour codes are ignored. A title names a failing test, a detail says why; when
 * there are more lines than fit, details go first, so that every failing test is still named.
 *
 * A leaf: the progress line (src/reporters/) reads it too.
 */

interface Rule {
  pattern: RegExp;
  kind: 'title' | 'detail';
  /** How many of the next non-empty lines belong with it (the message under cargo's `panicked at`), stack lines aside. */
  then?: number;
  /** What such a next line must look like to belong with it. */
  thenMatch?: RegExp;
}

const RULES: readonly Rule[] = [
  // pytest: the summary, the section of each failing test, its `E` lines and where it failed.
  { pattern: /^(FAILED|ERROR) \S/, kind: 'title' },
  { pattern: /^_{3,} .*\S.* _{3,}$/, kind: 'title' },
  { pattern: /^E {2,}\S/, kind: 'detail' },
  { pattern: /^\S+\.py:\d+: \w+$/, kind: 'detail' },
  // jest: each failure's title, the failing line of its code frame, expected and received.
  { pattern: /^\s*● \S/, kind: 'title' },
  { pattern: /^\s*> \d+ \|/, kind: 'detail' },
  { pattern: /^\s*(Expected|Received)( [\w ]+)?: /, kind: 'detail' },
  // vitest: the failing test, its assertion and where.
  { pattern: /^\s*FAIL\s+\S.* > /, kind: 'title' },
  { pattern: /^\s*× \S/, kind: 'title' },
  { pattern: /^\s*❯ \S+:\d+:\d+$/, kind: 'detail' },
  // mocha: `1) suite` with the test's name on the next line; node:test's spec reporter: `✖ name`.
  { pattern: /^\s*\d+\) \S/, kind: 'title', then: 1, thenMatch: /:$/ },
  { pattern: /^\s*✖ (?!failing tests:)\S/, kind: 'title' },
  { pattern: /^\s*at (Test)?Context\.<anonymous> \(/, kind: 'detail' },
  // node:test's TAP (the default reporter without a terminal): `not ok`, where, and the message.
  { pattern: /^\s*not ok \d+ - /, kind: 'title' },
  { pattern: /^\s*location: '/, kind: 'detail' },
  { pattern: /^\s*error: \|-$/, kind: 'detail', then: 2 },
  { pattern: /^\s*error: '/, kind: 'detail' },
  // cargo: the panic and its message, assert_eq's sides, the failing tests and the result.
  { pattern: /^thread '.*' (\(\d+\) )?panicked at /, kind: 'title', then: 1 },
  { pattern: /^\s*(left|right): /, kind: 'detail' },
  { pattern: /^test \S+ \.\.\. FAILED$/, kind: 'title' },
  { pattern: /^test result: FAILED\./, kind: 'detail' },
  // go test: each failing test (and subtest), the lines it logged, a panic, the failing package.
  { pattern: /^\s*--- FAIL: /, kind: 'title' },
  { pattern: /^\s+\S+_test\.go:\d+: /, kind: 'detail' },
  { pattern: /^panic: /, kind: 'title' },
  { pattern: /^FAIL\s+\S+\s/, kind: 'detail' },
  // Any runner: the assertion error itself.
  { pattern: /^\s*(AssertionError|TypeError|ReferenceError)\b.*:$/, kind: 'detail', then: 2 },
  { pattern: /^\s*(AssertionError|TypeError|ReferenceError)\b/, kind: 'detail' },
];

const MAX_LINE = 300;

const COLOUR = /\x1b\[[0-9;]*m/g;

/**
 * At most `max` lines of `output` that say what failed, in the order the runner printed them, each
 * once and clipped; empty when no runner's failure marker is there.
 */
export function failureLines(output: string, max = 12): string[] {
  const lines = output.split(/\r?\n/);
  return failureLineIndexes(lines, max).map((i) => clip(lines[i]!.replace(COLOUR, '').trimEnd()));
}

/** Where those lines are among `lines` (ascending). */
export function failureLineIndexes(given: readonly string[], max = 12): number[] {
  return failureEntries(given, max).map((e) => e.i);
}

/** Those lines with what each is: a title names a failing test, a detail says why (ascending). */
export function failureEntries(given: readonly string[], max = 12): Array<{ i: number; kind: 'title' | 'detail'; text: string }> {
  const lines = given.map((line) => line.replace(COLOUR, ''));
  const picked = new Map<number, Rule['kind']>();
  lines.forEach((line, i) => {
    const rule = RULES.find((r) => r.pattern.test(line));
    if (!rule) return;
    if (!picked.has(i) || rule.kind === 'title') picked.set(i, rule.kind);
    for (let next = i + 1, left = rule.then ?? 0; left > 0 && next < lines.length; next++) {
      const text = lines[next]!;
      if (!text.trim()) continue;
      if (STACK_LINE.test(text) || (rule.thenMatch && !rule.thenMatch.test(text.trimEnd()))) break;
      if (!picked.has(next)) picked.set(next, 'detail');
      left--;
    }
  });
  const found = withoutRepeats([...picked].sort(([a], [b]) => a - b).map(([i, kind]) => ({ i, kind, text: lines[i]!.trim() })));
  // Titles first when they do not all fit: every failing test named, then as many reasons as fit.
  const titles = found.filter((l) => l.kind === 'title').slice(0, max);
  const details = found.filter((l) => l.kind === 'detail').slice(0, max - titles.length);
  return [...titles, ...details].sort((a, b) => a.i - b.i);
}

const STACK_LINE = /^\s*at \S/;

type Found = { i: number; kind: Rule['kind']; text: string };

/** A failure told again (node:test's spec reporter lists every failure twice): its title and the details under it, once. */
function withoutRepeats(found: Found[]): Found[] {
  const titles = new Set<string>();
  let repeating = false;
  return found.filter(({ kind, text }) => {
    if (kind === 'title') {
      repeating = titles.has(text);
      titles.add(text);
    }
    return !repeating;
  });
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
