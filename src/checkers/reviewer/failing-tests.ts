/**
 * The failing tests a failing run names, each with the first line that says why: what its
 * evidence keeps (`tests/test_x.py::test_y: assert 2 == 3`, `adds: Expected values to be strictly
 * equal:`, `tests::adds: panicked at src/lib.rs:7:29:`). The lines are found by failure-lines.ts
 * (each runner's own markers, read from its real output); here a title line becomes the test's
 * name and the detail under it its reason. Bounded; never throws.
 */
import { failureEntries } from '../failure-lines.js';
import { outputLines } from './run-summaries.js';

const MAX_TESTS = 10;
const MAX_CHARS = 200;

/** A title line's test name: the runner's marker and its timing taken off. */
const NAMES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:FAILED|ERROR) (\S+)/, 1],
  [/^● (.+)$/, 1],
  [/^FAIL\s+(.+ > .+)$/, 1],
  [/^× (.+?)(?: \d+m?s)?$/, 1],
  [/^\d+\) (.+?):?$/, 1],
  [/^✖ (.+?)(?: \([\d.]+m?s\))?$/, 1],
  [/^not ok \d+ - (.+?)(?: # .*)?$/, 1],
  [/^--- FAIL: (\S+)/, 1],
  [/^test (\S+) \.\.\. FAILED$/, 1],
  [/^thread '(.+?)'(?: \(\d+\))? panicked at/, 1],
  [/^_{3,} (.+?) _{3,}$/, 1],
  [/^panic: (.+)$/, 1],
];

export function failingTests(output: string): string[] {
  const lines = outputLines(output);
  const entries = failureEntries(lines, MAX_TESTS * 3);
  const tests = new Map<string, string | undefined>();
  for (let n = 0; n < entries.length; n++) {
    const entry = entries[n]!;
    if (entry.kind !== 'title' || /# (TODO|SKIP)\b/.test(entry.text)) continue;
    let name = nameOf(entry.text);
    if (name === undefined) continue;
    // mocha's title goes on over the next line, up to its colon (`1) calc` / `garbage rejected:`).
    if (/^\d+\) /.test(entry.text) && entries[n + 1]?.kind === 'detail' && entries[n + 1]!.text.endsWith(':'))
      name = `${name} ${entries[++n]!.text.slice(0, -1)}`;
    const why = /^(?:FAILED|ERROR) \S+ - (.+)$/.exec(entry.text)?.[1] ?? reason(entries, n);
    if (!tests.has(name) || tests.get(name) === undefined) tests.set(name, why);
  }
  // A test named twice, once in full (`tests/x.py::test_y`, `file > name`, `suite name`): the full name only.
  const names = [...tests.keys()];
  const shorter = (name: string) =>
    names.some((other) => other !== name && /(::| > | |\.)$/.test(other.slice(0, other.length - name.length)) && other.endsWith(name));
  return [...tests]
    .filter(([name]) => !shorter(name))
    .slice(0, MAX_TESTS)
    .map(([name, why]) => bounded(why ? `${name}: ${why}` : name));
}

/** Lines that say where, not why: a location, a block's opening, the package's FAIL line, a stack frame. */
const NOT_A_REASON = /^(?:location: |error: [|>]-?$|FAIL\s|at |> \d+ \|)/;

/** The first line under the title at `n` that says why it failed. */
function reason(entries: ReadonlyArray<{ kind: string; text: string }>, n: number): string | undefined {
  for (const entry of entries.slice(n + 1)) {
    if (entry.kind === 'title') return undefined;
    if (!NOT_A_REASON.test(entry.text)) return entry.text.replace(/^(?:E|error:)\s+/, '');
  }
  return undefined;
}

function nameOf(title: string): string | undefined {
  for (const [pattern, group] of NAMES) {
    const m = pattern.exec(title);
    if (m) return m[group]!.trim();
  }
  return undefined;
}

function bounded(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}
