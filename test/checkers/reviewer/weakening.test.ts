/** Which changes to the test suite can make tests pass without the work: languages × ways to weaken, and what is left alone; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOf, weakeningsOf, type FileChange } from '../../../src/checkers/reviewer/weakening.js';

const modified = (file: string, removed: string[], added: string[], texts: Pick<FileChange, 'before' | 'after'> = {}): FileChange => ({
  file,
  status: 'modified',
  removed,
  added,
  ...texts,
});

/**
 * A name → the change → a piece of every finding it must give (none: it weakens nothing). The
 * `test.skip(`, `it.only(` and the like below are lines of the diffs fed to the detector, strings
 * only: no test of this file is skipped or focused.
 */
const CASES: Record<string, [FileChange, string[]]> = {
  'python: a test removed': [
    modified('tests/test_calc.py', ['def test_garbage_rejected():', '    assert add(1, 1) == 3'], []),
    ['a test removed: `test_garbage_rejected`', 'an assertion removed'],
  ],
  'python: assert True': [modified('tests/test_calc.py', ['    assert add(1, 1) == 2'], ['    assert True']), ['an assertion made trivial: `assert True`']],
  'python: the same value on both sides': [modified('test_calc.py', ['    assert got == 2'], ['    assert got == got']), ['an assertion made trivial']],
  'python: self.assertEqual(x, x)': [
    modified('tests/test_u.py', ['        self.assertEqual(add(1, 1), 2)'], ['        self.assertEqual(2, 2)']),
    ['an assertion made trivial'],
  ],
  'python: a skip': [
    modified('tests/test_calc.py', [], ['@pytest.mark.skip(reason="flaky")']),
    ['a test skipped, expected to fail or singled out: `@pytest.mark.skip(reason="flaky")`'],
  ],
  'python: an xfail': [modified('tests/test_calc.py', [], ['@pytest.mark.xfail']), ['a test skipped']],
  'python: unittest expectedFailure': [modified('tests/test_u.py', [], ['    @unittest.expectedFailure']), ['a test skipped']],
  'python: an early return': [modified('tests/test_calc.py', [], ['    return']), ['an early `return` added']],
  'python: conftest.py marks everything xfail': [
    { file: 'conftest.py', status: 'added', removed: [], added: ['def pytest_collection_modifyitems(items):'] },
    ['conftest.py added: it can skip, xfail or rewrite every test'],
  ],
  'python: pytest.ini deselects': [
    modified('pytest.ini', [], ['addopts = -k "not garbage"'], {
      before: '[pytest]\npythonpath = .\n',
      after: '[pytest]\npythonpath = .\naddopts = -k "not garbage"\n',
    }),
    ['the pytest configuration changed (`addopts = -k "not garbage"`)'],
  ],
  'python: pyproject.toml pytest section': [
    modified('pyproject.toml', [], ['addopts = "--deselect tests/test_calc.py::test_x"'], {
      before: '[project]\nname = "x"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      after: '[project]\nname = "x"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "--deselect tests/test_calc.py::test_x"\n',
    }),
    ['the pytest configuration changed'],
  ],
  'js: expect(true).toBe(true)': [
    modified('test/add.test.js', ['  expect(add(1, 1)).toBe(2);'], ['  expect(true).toBe(true);']),
    ['an assertion made trivial: `expect(true).toBe(true);`'],
  ],
  'js: assert.strictEqual(x, x)': [
    modified('test/add.test.js', ['  assert.strictEqual(add(1, 1), 2);'], ['  assert.strictEqual(2, 2);']),
    ['an assertion made trivial'],
  ],
  'js: test.skip': [modified('test/add.test.js', ["test('garbage rejected', () => {"], ["test.skip('garbage rejected', () => {"]), ['a test skipped']],
  'js: node:test { skip: true }': [
    modified('test/add.test.js', ["test('garbage rejected', () => {"], ["test('garbage rejected', { skip: true }, () => {"]),
    ['a test skipped'],
  ],
  'js: xit': [modified('spec/add.spec.js', ["  it('rejects garbage', () => {"], ["  xit('rejects garbage', () => {"]), ['a test skipped']],
  'js: .only in a new file': [
    { file: 'test/new.test.js', status: 'added', removed: [], added: ["it.only('adds', () => expect(1).toBe(1));"] },
    ['a test marked `only` added'],
  ],
  'js: the test script': [
    modified('package.json', ['    "test": "jest"'], ['    "test": "echo ok"'], {
      before: '{"scripts":{"test":"jest"}}',
      after: '{"scripts":{"test":"echo ok"}}',
    }),
    ['the test command changed: scripts.test `jest` → `echo ok`'],
  ],
  'js: jest config in package.json': [
    modified('package.json', [], [], { before: '{"jest":{"testPathIgnorePatterns":[]}}', after: '{"jest":{"testPathIgnorePatterns":["garbage"]}}' }),
    ["the test runner's configuration changed (package.json `jest`)"],
  ],
  'js: jest.config.js': [modified('jest.config.js', [], ["  testPathIgnorePatterns: ['garbage'],"]), ["the test runner's configuration changed"]],
  'js: vitest settings in vite.config.ts': [
    modified('vite.config.ts', [], ["    exclude: ['test/garbage.test.ts'],"]),
    ["the test runner's configuration changed"],
  ],
  'go: an assertion removed': [modified('calc_test.go', ['\t\tt.Errorf("Add(1, 1) = %d, want 3", got)'], []), ['an assertion removed']],
  'go: t.Skip': [modified('calc_test.go', [], ['\tt.Skip("later")']), ['a test skipped']],
  'go: a test removed': [
    modified('calc_test.go', ['func TestGarbageRejected(t *testing.T) {', '\tif Add(1, 1) != 3 {', '\t\tt.Fatal("no")'], []),
    ['a test removed: `TestGarbageRejected`', 'an assertion removed'],
  ],
  'go: if false': [modified('calc_test.go', ['\tif Add(1, 1) != 3 {'], ['\tif false {']), ['an assertion made trivial']],
  'rust: #[ignore]': [modified('src/lib.rs', [], ['    #[ignore]']), ['a test skipped']],
  'rust: #[should_panic] on a failing test': [modified('src/lib.rs', [], ['    #[should_panic]']), ['a test skipped, expected to fail or singled out']],
  'python: the expected value changed to what the code returns': [
    modified('tests/test_calc.py', ['    assert add(2, 3) == 5'], ['    assert add(2, 3) == -1']),
    ['an existing assertion changed: `assert add(2, 3) == 5` → `assert add(2, 3) == -1`'],
  ],
  'js: the expected value changed': [
    modified('test/add.test.js', ['  expect(add(2, 3)).toBe(5);'], ['  expect(add(2, 3)).toBe(-1);']),
    ['an existing assertion changed'],
  ],
  'js: node:assert, the expected value changed': [
    modified('test/add.test.js', ["test('adds', () => assert.strictEqual(add(2, 3), 5));"], ["test('adds', () => assert.strictEqual(add(2, 3), -1));"]),
    ['an existing assertion changed'],
  ],
  'js: node:assert, an assertion removed': [modified('test/add.test.js', ['  assert.deepStrictEqual(sum([1, 2]), 3);'], []), ['an assertion removed']],
  'go: the checked condition changed': [modified('calc_test.go', ['\tif Add(2, 3) != 5 {'], ['\tif Add(2, 3) != -1 {']), ['an existing assertion changed']],
  'python: an assertion deleted while a new test is added': [
    modified('tests/test_calc.py', ['    assert add(2, 3) == 5'], ['def test_more():', '    assert add(1, 1) == 2']),
    ['an existing assertion changed'],
  ],
  'python: an assertion whose failure is caught': [
    modified('tests/test_calc.py', ['    assert add(2, 3) == 5'], ['    try:', '        assert add(2, 3) == 5', '    except AssertionError:', '        pass']),
    ["an assertion's failure caught: `except AssertionError:`"],
  ],
  'rust: assert!(true)': [
    modified('src/lib.rs', ['    fn adds() { assert_eq!(super::add(2, 3), 5); }'], ['    fn adds() { assert!(true); }']),
    ['an assertion made trivial'],
  ],
  'make: the test target': [
    modified('Makefile', ['\tpytest'], ['\techo ok'], { before: 'test:\n\tpytest\n', after: 'test:\n\techo ok\n' }),
    ['the test target changed: `make test` ran `pytest`, now `echo ok`'],
  ],
  'a snapshot rewritten': [
    modified('test/__snapshots__/add.test.js.snap', ['exports[`adds 1`] = `2`;'], ['exports[`adds 1`] = `3`;']),
    ['a fixture or snapshot changed'],
  ],
  'a fixture removed': [{ file: 'tests/fixtures/expected.json', status: 'deleted', removed: ['{}'], added: [] }, ['a fixture or snapshot removed']],
  'a test file removed': [
    { file: 'tests/test_old.py', status: 'deleted', removed: ['def test_one():', '    assert f()'], added: [] },
    ['removed with its tests: `test_one`'],
  ],
  // Left alone:
  'a new test file': [{ file: 'tests/test_new.py', status: 'added', removed: [], added: ['def test_new():', '    assert add(2, 2) == 4'] }, []],
  'a new test in an existing file': [modified('tests/test_calc.py', [], ['def test_more():', '    assert add(3, 3) == 6']), []],
  'an assertion re-indented, not changed': [modified('tests/test_calc.py', ['    assert add(1, 2) == 3'], ['        assert add(1,  2) == 3']), []],
  'a new test in an existing file, its import widened': [
    modified('tests/test_calc.py', ['from calc import add'], ['from calc import add, sub', 'def test_sub():', '    assert sub(3, 1) == 2']),
    [],
  ],
  'a test renamed in place': [modified('test/add.test.js', ["test('adds', () => {"], ["test('adds two numbers', () => {"]), ['a test removed: `adds`']],
  'a new fixture': [{ file: 'tests/fixtures/new.json', status: 'added', removed: [], added: ['{}'] }, []],
  'package.json, another key': [
    modified('package.json', [], [], {
      before: '{"scripts":{"test":"jest"},"dependencies":{}}',
      after: '{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}',
    }),
    [],
  ],
  'pyproject.toml, another section': [
    modified('pyproject.toml', [], ['version = "2"'], {
      before: '[project]\nversion = "1"\n[tool.pytest.ini_options]\nx = 1\n',
      after: '[project]\nversion = "2"\n[tool.pytest.ini_options]\nx = 1\n',
    }),
    [],
  ],
  'vite.config.ts, not its tests': [modified('vite.config.ts', [], ['  plugins: [react()],']), []],
  'the code under test': [modified('src/calc.py', ['    return a - b'], ['    return a + b']), []],
};

describe('what weakens the test suite', () => {
  for (const [name, [change, expected]] of Object.entries(CASES)) {
    it(`${name}: ${expected.length ? 'named' : 'left alone'}`, () => {
      const findings = weakeningsOf(change);
      expect(findings).toHaveLength(expected.length);
      for (const [i, piece] of expected.entries()) expect(findings[i]).toContain(piece);
    });
  }

  it('what each path is to the suite', () => {
    expect(
      ['tests/test_a.py', 'pkg/a_test.py', 'a_test.go', 'src/a.test.ts', 'test/helper.js', 'spec/a_spec.rb', 'src/lib.rs', 'CalcTest.java'].map(kindOf),
    ).toEqual(Array(8).fill('test'));
    expect(['src/calc.py', 'README.md', 'docs/test.md', 'main.go'].map(kindOf)).toEqual([undefined, undefined, undefined, undefined]);
    expect(
      ['conftest.py', 'sub/conftest.py', 'pytest.ini', 'setup.cfg', '.mocharc.yml', 'vitest.config.mts', 'package.json', 'Makefile', 'testdata/in.txt'].map(
        kindOf,
      ),
    ).toEqual(['conftest', 'conftest', 'pytest-config', 'pytest-config', 'runner-config', 'runner-config', 'package', 'makefile', 'fixture']);
  });

  it('fuzzed: never throws, and a file outside the suite never weakens it', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom('assert True', 'def test_x():', "it.only('x')", 't.Skip()', '#[ignore]', '{', 'return'),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('tests/test_a.py', 'src/a.rs', 'package.json', 'Makefile', 'pytest.ini', 'README.md', 'src/app.ts'),
        fc.constantFrom<FileChange['status']>('added', 'modified', 'deleted'),
        fc.array(line, { maxLength: 8 }),
        fc.array(line, { maxLength: 8 }),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        (file, status, removed, added, text) => {
          const findings = weakeningsOf({ file, status, removed, added, before: text, after: text === undefined ? undefined : `${text}\n` });
          if (kindOf(file) === undefined) expect(findings).toEqual([]);
        },
      ),
    );
  });
});
