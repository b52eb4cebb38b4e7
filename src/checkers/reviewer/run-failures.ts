/**
 * The failing tests a runner named in its output, each with the first line that says why:
 * pytest's `FAILED tests/test_x.py::test_y - assert 1 == 2`, node's `not ok 1 - adds` and its
 * `error:` line, jest's `● adds`, vitest's `FAIL  test/a.test.js > adds`, mocha's `1) adds` and its
 * error, cargo's `---- tests::adds stdout ----` and its `panicked at`, go's `--- FAIL: TestAdd` and
 * the line under it, unittest's `FAIL: test_x (…)`. What a failing run is shown with (the
 * feedback when a reviewer said complete over it, the evidence text): bounded, never thrown on.
 */
import type { Family } from './runner-rules.js';
import { outputLines } from './run-summaries.js';

const MAX_FAILURES = 10;
const MAX_CHARS = 200;

type Reader = (lines: readonly string[]) => string[];

/** The first line after `at` (within `span`) that matches `pattern`, trimmed. */
function after(lines: readonly string[], at: number, pattern: RegExp, span = 12): string | undefined {
  for (const line of lines.slice(at + 1, at + 1 + span)) if (pattern.test(line)) return line.trim();
  return undefined;
}

const named = (name: string, why: string | undefined) => (why ? `${name}: ${why}` : name);

/** node's TAP: the `error:` of the YAML block under a `not ok`, its first line when it is a block (`|-`). */
function yamlError(lines: readonly string[], at: number): string | undefined {
  const line = after(lines, at, /^\s+error: /, 20);
  const value = line?.replace(/^error: /, '').replace(/^'(.*)'$/, '$1');
  if (value === undefined || !/^[|>]-?$/.test(value)) return value;
  const index = lines.indexOf(
    lines.slice(at + 1).find((l) => /^\s+error: /.test(l))!,
    at + 1,
  );
  return lines
    .slice(index + 1, index + 6)
    .find((l) => l.trim())
    ?.trim();
}

const READERS: Partial<Record<Family, Reader>> = {
  pytest: (lines) =>
    lines.flatMap((l) => {
      const m = /^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/.exec(l);
      return m ? [named(m[1]!, m[2])] : [];
    }),
  'node-test': (lines) =>
    lines.flatMap((l, i) => {
      if (/^\s*not ok \d+ - .* # (TODO|SKIP)\b/.test(l)) return [];
      const tap = /^\s*not ok \d+ - (.*?)$/.exec(l);
      if (tap) return [named(tap[1]!, yamlError(lines, i))];
      const spec = /^\s*✖ (.*?)(?: \([\d.]+m?s\))?$/.exec(l);
      return spec && !/^failing tests:$/.test(spec[1]!) ? [named(spec[1]!, after(lines, i, /Error|expected|assert/i))] : [];
    }),
  jest: (lines) =>
    lines.flatMap((l, i) => {
      const m = /^\s*● (.+)$/.exec(l);
      return m ? [named(m[1]!, after(lines, i, /\S/))] : [];
    }),
  vitest: (lines) =>
    lines.flatMap((l, i) => {
      const m = /^\s*FAIL\s+(.+>.+)$/.exec(l);
      return m ? [named(m[1]!.trim(), after(lines, i, /Error|expected/i))] : [];
    }),
  mocha: (lines) => {
    // The details after `N failing`: `  1) suite` then the rest of the title, indented, ending with `:`.
    const start = lines.findIndex((l) => /^\s*\d+ failing$/.test(l));
    if (start === -1) return [];
    const out: string[] = [];
    for (let i = start + 1; i < lines.length; i++) {
      const m = /^\s+\d+\) (.*)$/.exec(lines[i]!);
      if (!m) continue;
      const title = [m[1]!.trim()];
      while (!title[title.length - 1]!.endsWith(':') && i + 1 < lines.length && lines[i + 1]!.trim()) title.push(lines[++i]!.trim());
      out.push(named(title.join(' ').replace(/:$/, ''), after(lines, i, /Error|expected/i)));
    }
    return out;
  },
  cargo: (lines) =>
    lines.flatMap((l, i) => {
      const m = /^---- (\S+) stdout ----$/.exec(l);
      if (!m) return [];
      const at = lines.findIndex((x, j) => j > i && /panicked at/.test(x));
      const why = at === -1 ? undefined : [lines[at]!.replace(/^thread '.*?'(?: \(\d+\))? /, '').trim(), lines[at + 1]?.trim()].filter(Boolean).join(' ');
      return [named(m[1]!, why)];
    }),
  go: (lines) =>
    lines.flatMap((l, i) => {
      const m = /^\s*--- FAIL: (\S+)/.exec(l);
      if (!m) return [];
      // Without -v the test's log comes under its `--- FAIL`; with -v, above it.
      const above = /^\s+\S+\.go:\d+: /.test(lines[i - 1] ?? '') ? lines[i - 1]!.trim() : undefined;
      return [named(m[1]!, after(lines, i, /^\s+\S+\.go:\d+: /, 2) ?? above)];
    }),
  unittest: (lines) =>
    lines.flatMap((l, i) => {
      const m = /^(?:FAIL|ERROR): (\S+) \((.*)\)$/.exec(l);
      return m ? [named(`${m[2]!}`, after(lines, i, /^\w*(Error|Exception)\b/, 30))] : [];
    }),
};
READERS.libtest = READERS.cargo;

/** The failing tests of the runners of `families`, in the order printed, each once, at most MAX_FAILURES. */
export function failureLines(families: readonly Family[], output: string): string[] {
  const lines = outputLines(output);
  const found = [...new Set(families)].flatMap((f) => READERS[f]?.(lines) ?? []);
  return [...new Set(found.map(bounded))].slice(0, MAX_FAILURES);
}

function bounded(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}
