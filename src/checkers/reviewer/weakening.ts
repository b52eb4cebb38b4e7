/**
 * Whether a change to one file can make tests pass without the work being done, read from the
 * lines it removed and added (a zero-context diff) and, for configuration, its text before and
 * after: an existing test removed, an assertion deleted or made trivial (`assert True`,
 * `expect(true).toBe(true)`, the same value on both sides) or changed to expect something else, its
 * failure caught, a skip, xfail, todo, ignore, `should_panic` or `.only` added, an early `return` in a test, the pytest or runner configuration or `conftest.py` changed,
 * the test script or the Makefile's test target changed, a fixture or snapshot rewritten. A new
 * test file is good and says nothing, unless it holds an `.only` (which leaves the other tests
 * out) or is itself configuration (a new `conftest.py`). Pure: the caller reads the diff.
 */
import path from 'node:path';
import { memoryProjectFiles } from '../../init/project-files.js';
import { makeRecipes } from './make-recipes.js';

export interface FileChange {
  /** The file's path now (its old path for a deleted one), relative to the project. */
  file: string;
  status: 'added' | 'modified' | 'deleted';
  /** The lines it removed and added (without the diff's `-`/`+`). */
  removed: readonly string[];
  added: readonly string[];
  /** Its text before and after, for the files whose meaning is their whole text (package.json, a Makefile, pytest's sections). */
  before?: string;
  after?: string;
}

type Kind = 'test' | 'conftest' | 'pytest-config' | 'runner-config' | 'package' | 'makefile' | 'fixture';

const CODE = /\.(py|[cm]?[jt]sx?|go|rs|rb|java|kt|cs|php|exs?)$/;
const TEST_FILE = /(^|\/)(test_[^/]*\.py|[^/]*_test\.(py|go|exs)|[^/]*\.(test|spec)\.[cm]?[jt]sx?|[^/]*_spec\.rb|[^/]*Tests?\.(java|kt|cs|php))$/;
const TEST_DIR = /(^|\/)(tests?|__tests__|specs?)\//;
const RUNNER_CONFIG =
  /(^|\/)(jest|vitest|vite|playwright|karma|ava|cypress)\.config\.[cm]?[jt]s$|(^|\/)\.mocharc(\.[a-z]+)?$|(^|\/)\.cargo\/config(\.toml)?$|(^|\/)(phpunit\.xml(\.dist)?|\.rspec|pytest\.ini)$/;
const FIXTURE = /(^|\/)(fixtures?|__fixtures__|testdata|test-data|__snapshots__|snapshots|golden)\/|\.(snap|golden)$/;
const MAKEFILE = /(^|\/)(GNUmakefile|makefile|Makefile)$/;

/** What a path is to the test suite, or undefined when it is none of it. */
export function kindOf(file: string): Kind | undefined {
  const base = path.posix.basename(file);
  if (base === 'conftest.py') return 'conftest';
  if (base === 'pyproject.toml' || base === 'setup.cfg' || base === 'tox.ini') return 'pytest-config';
  if (RUNNER_CONFIG.test(file)) return base === 'pytest.ini' ? 'pytest-config' : 'runner-config';
  if (base === 'package.json') return 'package';
  if (MAKEFILE.test(file)) return 'makefile';
  if (FIXTURE.test(file)) return 'fixture';
  if (CODE.test(file) && (TEST_FILE.test(file) || TEST_DIR.test(file) || file.endsWith('.rs'))) return 'test';
  return undefined;
}

/** The findings of one file's change; none when it weakens nothing. */
export function weakeningsOf(change: FileChange): string[] {
  const kind = kindOf(change.file);
  switch (kind) {
    case 'test':
      return testFile(change);
    case 'conftest':
      return [`conftest.py ${verb(change)}: it can skip, xfail or rewrite every test`];
    case 'runner-config':
      if (/(^|\/)vite\.config/.test(change.file) && ![...change.removed, ...change.added].some((l) => /\btest\b|include|exclude|only|passWithNoTests/.test(l)))
        return [];
      return [`the test runner's configuration ${verb(change)}${firstLine(change)}`];
    case 'pytest-config':
      return pytestSection(change);
    case 'package':
      return testScripts(change);
    case 'makefile':
      return testTarget(change);
    case 'fixture':
      return change.status === 'added' ? [] : [`a fixture or snapshot ${verb(change)}: a test compares with it`];
    default:
      return [];
  }
}

function verb(change: FileChange): string {
  return change.status === 'added' ? 'added' : change.status === 'deleted' ? 'removed' : 'changed';
}

function firstLine(change: FileChange): string {
  const line = [...change.added, ...change.removed].map((l) => l.trim()).find((l) => l && !/^[#/*]/.test(l));
  return line ? ` (\`${clip(line)}\`)` : '';
}

/** The names of tests a line defines: `def test_x`, `test('adds', …)`, `func TestX`, a `#[test]` attribute. */
const TEST_DEFS: ReadonlyArray<RegExp> = [
  /^\s*(?:async\s+)?def\s+(test\w*)\s*\(/,
  /^\s*class\s+(Test\w*)\b/,
  /^\s*func\s+(Test\w+)\s*\(/,
  /\b[xf]?(?:it|test|specify)(?:\.\w+)*\s*\(\s*(['"`])(.+?)\1/,
  /^\s*(#\[(?:tokio::)?test\])/,
  /^\s*(@Test)\b/,
];

function testNames(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    for (const re of TEST_DEFS) {
      const m = re.exec(line);
      if (m) return [m[m.length - 1]!];
    }
    return [];
  });
}

const ASSERTION =
  /\bassert(?:_eq|_ne)?!?\s*[(\s]|\bassert\w*\s*\(|\bassert\.\w+\s*\(|\bexpect\s*\(|\bself\.assert\w*\(|\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|\brequire\.\w+\(|\bpytest\.raises\(/;

/** An assertion that holds whatever the code does: a constant, or the same value on both sides. */
const TRIVIAL: ReadonlyArray<RegExp> = [
  /^\s*assert\s+(?:True|1|not\s+(?:False|None|0))\s*(?:,.*)?$/,
  /^\s*assert\s+(\S+)\s*==\s*\1\s*(?:,.*)?$/,
  /\bself\.assert(?:True|IsNotNone)\(\s*(?:True|1)\s*\)/,
  /\b(?:self\.)?assert(?:Equals?|_eq!|\.(?:strict)?(?:deep)?(?:Strict)?(?:equal|Equal))\(\s*([^,()]+?)\s*,\s*\1\s*\)/i,
  /\bexpect\(\s*(true|1|!0|[\w.'"`]+)\s*\)\.(?:toBe|toEqual|toStrictEqual)\(\s*\1\s*\)/,
  /\bexpect\(\s*(?:true|1|!0)\s*\)\.(?:toBeTruthy|toBeDefined)\(\s*\)/,
  /\bassert(?:\.ok)?\(\s*(?:true|1|!0)\s*\)/,
  /\bassert!\(\s*true\s*\)/,
  /^\s*if\s+false\s*\{/,
];

/** A test left out: skipped, expected to fail, a todo, ignored; and `.only`, which leaves out the others. */
const SKIP: ReadonlyArray<RegExp> = [
  /@pytest\.mark\.(?:skip|skipif|xfail)\b/,
  /\bpytest\.(?:skip|xfail)\s*\(/,
  /\bpytestmark\s*=.*\b(?:skip|xfail)\b/,
  /\.add_marker\(.*\b(?:skip|xfail)\b/,
  /@unittest\.(?:skip\w*|expectedFailure)\b/,
  /\bself\.skipTest\s*\(|\braise\s+unittest\.SkipTest\b/,
  /\b(?:it|test|describe|suite|context|specify)\.(?:skip|only|todo|failing|fails)\b/,
  /\b(?:xit|xtest|xdescribe|xcontext|fit|fdescribe|fcontext)\s*\(/,
  /[{,]\s*(?:skip|todo|only)\s*:\s*(?:true|['"`])/,
  /\b(?:t|this|ctx)\.(?:skip|todo)\s*\(/,
  /\bt\.Skip(?:f|Now)?\s*\(/,
  /#\[ignore\b/,
  // A test that fails by panicking passes once it is said to panic.
  /#\[should_panic\b/,
  /@(?:Disabled|Ignore)\b/,
  /^\s*(?:skip|pending)\b/,
];
/** A check in a Go test: the condition of the `if` whose body calls t.Error or t.Fatal. */
const GO_CHECK = /^\s*if\s.*(?:[!=]=|[<>]=?|!\s*\w+\.(?:DeepEqual|Equal)\()/;
/** An assertion's failure caught, so that it no longer fails the test. */
const SWALLOWED = [/^\s*except\s*(?:\(?\s*(?:AssertionError|Exception|BaseException)\b.*)?:\s*$/, /\bcatch\s*\(\s*(?:AssertionError|AssertionFailedError)\b/];
const ONLY = /\.only\b|\b(?:fit|fdescribe|fcontext)\s*\(/;

function count(lines: readonly string[], pattern: RegExp | readonly RegExp[]): number {
  const patterns: readonly RegExp[] = pattern instanceof RegExp ? [pattern] : pattern;
  // A comment line says nothing (a Rust attribute `#[ignore]` is no comment).
  return lines.filter((line) => !/^\s*(#(?!\[)|\/\/)/.test(line) && patterns.some((re) => re.test(line))).length;
}

function testFile(change: FileChange): string[] {
  if (change.status === 'added') return count(change.added, ONLY) > 0 ? ['a test marked `only` added: the other tests no longer run'] : [];
  const findings: string[] = [];
  const gone = removedNames(change);
  if (change.status === 'deleted') return gone.length ? [`removed with its tests: ${listed(gone)}`] : [];
  if (gone.length) findings.push(`${gone.length === 1 ? 'a test' : `${gone.length} tests`} removed: ${listed(gone)}`);
  const lost = count(change.removed, ASSERTION) - count(change.added, ASSERTION);
  if (lost > 0) findings.push(lost === 1 ? 'an assertion removed' : `${lost} assertions removed`);
  const trivial = change.added.find((line) => TRIVIAL.some((re) => re.test(line)));
  if (trivial) findings.push(`an assertion made trivial: \`${clip(trivial.trim())}\``);
  else {
    const edited = editedAssertion(change);
    if (edited) findings.push(`an existing assertion changed: \`${clip(edited[0].trim())}\` → \`${clip(edited[1].trim())}\``);
  }
  const swallowed = change.added.find((line) => SWALLOWED.some((re) => re.test(line)));
  if (swallowed && count(change.added, SWALLOWED) > count(change.removed, SWALLOWED))
    findings.push(`an assertion's failure caught: \`${clip(swallowed.trim())}\``);
  const skips = count(change.added, SKIP) - count(change.removed, SKIP);
  if (skips > 0) {
    const line = change.added.find((l) => SKIP.some((re) => re.test(l)))!;
    findings.push(`a test skipped, expected to fail or singled out: \`${clip(line.trim())}\``);
  }
  if (count(change.added, /^\s*return\s*;?\s*$/) > count(change.removed, /^\s*return\s*;?\s*$/)) findings.push('an early `return` added');
  return findings;
}

/**
 * An existing assertion the change replaced by another (the first of each), or undefined. Changing
 * what a test expects to what the code now returns is the usual way to turn a red test green; a line
 * only re-indented or moved is no change. A new test's assertions replace nothing unless one was
 * removed beside them.
 */
function editedAssertion(change: FileChange): [string, string] | undefined {
  const go = change.file.endsWith('_test.go');
  const checks = (lines: readonly string[]) =>
    lines.filter((line) => !/^\s*(#(?!\[)|\/\/)/.test(line) && (ASSERTION.test(line) || (go && GO_CHECK.test(line))));
  const bare = (line: string) => line.replace(/\s+/g, '');
  const unmatched = (from: readonly string[], against: readonly string[]) => {
    const left = against.map(bare);
    return from.filter((line) => {
      const i = left.indexOf(bare(line));
      if (i === -1) return true;
      left.splice(i, 1);
      return false;
    });
  };
  const [removed, added] = [checks(change.removed), checks(change.added)];
  const gone = unmatched(removed, added);
  const fresh = unmatched(added, removed);
  return gone.length > 0 && fresh.length > 0 ? [gone[0]!, fresh[0]!] : undefined;
}

/** Tests whose definition was removed and not added back (a moved or renamed test is not gone). */
function removedNames(change: FileChange): string[] {
  const added = testNames(change.added);
  const removed = testNames(change.removed);
  const left = [...added];
  return removed.filter((name) => {
    const i = left.indexOf(name);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `\`${clip(n)}\``);
  return `${shown.join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
}

/** pytest's settings: all of pytest.ini, the `[pytest]`/`[tool:pytest]`/`[tool.pytest.ini_options]` section of the others. */
function pytestSection(change: FileChange): string[] {
  const section = (text: string | undefined) => {
    if (text === undefined) return '';
    if (path.posix.basename(change.file) === 'pytest.ini') return text;
    const m = /^\[(?:pytest|tool:pytest|tool\.pytest(?:\.ini_options)?)\][^\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text);
    return m ? m[1]!.trim() : '';
  };
  const [before, after] = [section(change.before), section(change.after)];
  if (before === after) return [];
  const line = after.split('\n').find((l) => l.trim() && !before.split('\n').includes(l));
  return [`the pytest configuration ${before === '' ? 'added' : after === '' ? 'removed' : 'changed'}${line ? ` (\`${clip(line.trim())}\`)` : ''}`];
}

/** The scripts a test run goes through (`test`, `test:*`, `pretest`) and the runners' own keys (`jest`, `mocha`, `ava`, `vitest`). */
function testScripts(change: FileChange): string[] {
  const read = (text: string | undefined) => {
    try {
      return (JSON.parse(text ?? '{}') ?? {}) as { scripts?: Record<string, unknown> } & Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const [before, after] = [read(change.before), read(change.after)];
  const findings: string[] = [];
  const names = new Set([...Object.keys(before.scripts ?? {}), ...Object.keys(after.scripts ?? {})].filter((n) => /^(pre|post)?test(:|$)/.test(n)));
  for (const name of names) {
    const [was, now] = [before.scripts?.[name], after.scripts?.[name]].map((v) =>
      v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v),
    );
    if (was !== now)
      findings.push(
        `the test command changed: scripts.${name} ${was === undefined ? 'added' : `\`${clip(was)}\``} → ${now === undefined ? 'removed' : `\`${clip(now)}\``}`,
      );
  }
  for (const key of ['jest', 'mocha', 'ava', 'vitest', 'c8', 'nyc'])
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) findings.push(`the test runner's configuration changed (package.json \`${key}\`)`);
  return findings;
}

/** The recipes of the `test` and `check` targets (make-recipes.ts), before and after. */
function testTarget(change: FileChange): string[] {
  const recipes = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const files = memoryProjectFiles({ Makefile: text });
    const read = makeRecipes(files, 'Makefile', ['test', 'check']);
    return read.lines.join('\n');
  };
  const [before, after] = [recipes(change.before), recipes(change.after)];
  if (before === after || before === '') return [];
  return [`the test target changed: \`make test\` ran \`${clip(before ?? '')}\`, now \`${clip(after || '(nothing)')}\``];
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
