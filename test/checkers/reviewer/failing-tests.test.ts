/** The failing tests a failing run names, with the first line that says why, from the real output of each runner (test/checkers/fixtures/failing-runs/). */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failingTests } from '../../../src/checkers/reviewer/failing-tests.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'failing-runs', name), 'utf8');

describe('the failing tests of a failing run', () => {
  it.each([
    [
      'pytest.txt',
      ["tests/test_parse.py::test_parse_empty: AssertionError: assert [] == ['']", 'tests/test_parse.py::test_garbage_rejected: AssertionError: empty fie...'],
    ],
    ['nodetest-tap.txt', ['empty input: Expected values to be strictly deep-equal:', 'keeps empty fields: Expected values to be strictly equal:']],
    [
      'nodetest-spec.txt',
      [
        'empty input: AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
        'keeps empty fields: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      ],
    ],
    ['jest.txt', ['parse › empty input', 'parse › keeps empty fields: Expected length: 3']],
    [
      'vitest.txt',
      [
        "parse.test.js > parse > empty input: AssertionError: expected [] to deeply equal [ '' ]",
        "parse.test.js > parse > keeps empty fields: AssertionError: expected [ 'a', 'b' ] to have a length of 3 but got 2",
      ],
    ],
    [
      'mocha.txt',
      [
        'parse empty input: AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
        'parse keeps empty fields: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      ],
    ],
    ['cargo.txt', ['tests::push_pop: assertion `left == right` failed', 'tests::never_panics: index out of bounds: the len is 0 but the index is 3']],
    ['go.txt', ['TestKeepsEmpty: parse_test.go:13: Parse("a,,b") = [a b], want 3 fields', 'TestSub', 'TestSub/empty: parse_test.go:20: got 0 fields, want 1']],
  ])('%s: each failing test once, named as its runner names it, with why', (file, expected) => {
    expect(failingTests(fixture(file))).toEqual(expected);
  });

  it('a TODO or skipped test is no failure; a passing output names none; fuzzed, never throws and stays bounded', () => {
    expect(failingTests('not ok 4 - todo one # TODO\n# pass 1\n')).toEqual([]);
    expect(failingTests('# tests 2\n# pass 2\n# fail 0\n')).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('FAILED a::b - x', '● t', 'not ok 1 - n', '--- FAIL: T', '1) s', 'E   e')), { maxLength: 30 }),
        (lines) => {
          const found = failingTests(lines.join('\n'));
          expect(found.length).toBeLessThanOrEqual(10);
          for (const f of found) expect(f.length).toBeLessThanOrEqual(200);
        },
      ),
    );
  });
});
