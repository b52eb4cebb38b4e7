/**
 * The lines of a failing run that say what failed (src/checkers/failure-lines.ts), read from the
 * real output of each runner (fixtures/failing-runs/, with how each was taken): every failing test
 * named with the line that says why, in the runner's order, and none of its header, its passing
 * tests or its stack frames. Then what holds for any output at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureLineIndexes, failureLines } from '../../src/checkers/failure-lines.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'failing-runs');
const output = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

/** pytest's failures read the same with and without `-q`. */
const PYTEST = [
  '_______________________________ test_parse_empty _______________________________',
  "E       AssertionError: assert [] == ['']",
  "E         Right contains one more item: ''",
  'E         Use -v to get more diff',
  'tests/test_parse.py:8: AssertionError',
  '____________________________ test_garbage_rejected _____________________________',
  'E       AssertionError: empty fields must be kept',
  'E       assert 2 == 3',
  "E        +  where 2 = len(['a', 'b'])",
  'tests/test_parse.py:12: AssertionError',
  "FAILED tests/test_parse.py::test_parse_empty - AssertionError: assert [] == ['']",
  'FAILED tests/test_parse.py::test_garbage_rejected - AssertionError: empty fie...',
];

const EXPECTED: Array<[string, string[]]> = [
  [
    'cargo-nobt.txt',
    [
      'test tests::never_panics ... FAILED',
      'test tests::push_pop ... FAILED',
      "thread 'tests::never_panics' (9740) panicked at src/lib.rs:15:60:",
      'index out of bounds: the len is 0 but the index is 3',
      "thread 'tests::push_pop' (9741) panicked at src/lib.rs:11:69:",
      'assertion `left == right` failed',
      '  left: Some(1)',
      ' right: Some(2)',
      'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    ],
  ],
  [
    'cargo.txt',
    [
      'test tests::push_pop ... FAILED',
      'test tests::never_panics ... FAILED',
      "thread 'tests::push_pop' (9660) panicked at src/lib.rs:11:69:",
      'assertion `left == right` failed',
      '  left: Some(1)',
      ' right: Some(2)',
      "thread 'tests::never_panics' (9659) panicked at src/lib.rs:15:60:",
      'index out of bounds: the len is 0 but the index is 3',
      'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.08s',
    ],
  ],
  [
    'go-v.txt',
    [
      '    parse_test.go:13: Parse("a,,b") = [a b], want 3 fields',
      '--- FAIL: TestKeepsEmpty (0.00s)',
      '    parse_test.go:20: got 0 fields, want 1',
      '--- FAIL: TestSub (0.00s)',
      '    --- FAIL: TestSub/empty (0.00s)',
      'FAIL\texample.com/parse\t0.002s',
    ],
  ],
  [
    'go.txt',
    [
      '--- FAIL: TestKeepsEmpty (0.00s)',
      '    parse_test.go:13: Parse("a,,b") = [a b], want 3 fields',
      '--- FAIL: TestSub (0.00s)',
      '    --- FAIL: TestSub/empty (0.00s)',
      '        parse_test.go:20: got 0 fields, want 1',
      'FAIL\texample.com/parse\t0.001s',
    ],
  ],
  [
    'jest.txt',
    [
      '  ● parse › empty input',
      "    > 4 |   test('empty input', () => { expect(parse('')).toEqual(['']); });",
      '  ● parse › keeps empty fields',
      '    Expected length: 3',
      '    Received length: 2',
      '    Received array:  ["a", "b"]',
      "    > 5 |   test('keeps empty fields', () => { expect(parse('a,,b')).toHaveLength(3); });",
    ],
  ],
  [
    'mocha.txt',
    [
      '    1) empty input',
      '    2) keeps empty fields',
      '  1) parse',
      '       empty input:',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      '+ actual - expected',
      '+ []',
      '      at Context.<anonymous> (test.js:5:36)',
      '  2) parse',
      '       keeps empty fields:',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '2 !== 3',
    ],
  ],
  [
    'nodetest-spec.txt',
    [
      '✖ empty input (1.382723ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      '  + actual - expected',
      '  + []',
      '      at TestContext.<anonymous> (/tmp/ff/nodetest/parse.test.js:5:36)',
      '✖ keeps empty fields (0.184181ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '  2 !== 3',
      '      at TestContext.<anonymous> (/tmp/ff/nodetest/parse.test.js:6:43)',
    ],
  ],
  [
    'nodetest-tap.txt',
    [
      'not ok 2 - empty input',
      "  location: '/tmp/ff/nodetest/parse.test.js:5:1'",
      '  error: |-',
      '    Expected values to be strictly deep-equal:',
      '    + actual - expected',
      'not ok 3 - keeps empty fields',
      "  location: '/tmp/ff/nodetest/parse.test.js:6:1'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    2 !== 3',
    ],
  ],
  [
    'pytest-error.txt',
    [
      '____________________ ERROR collecting tests/test_broken.py _____________________',
      "E   ModuleNotFoundError: No module named 'nonexistent_module_xyz'",
      'ERROR tests/test_broken.py',
    ],
  ],
  ['pytest-q.txt', PYTEST],
  ['pytest.txt', PYTEST],
  [
    'vitest.txt',
    [
      '   × parse > empty input 5ms',
      '   × parse > keeps empty fields 2ms',
      ' FAIL  parse.test.js > parse > empty input',
      "AssertionError: expected [] to deeply equal [ '' ]",
      ' ❯ parse.test.js:5:49',
      ' FAIL  parse.test.js > parse > keeps empty fields',
      "AssertionError: expected [ 'a', 'b' ] to have a length of 3 but got 2",
      ' ❯ parse.test.js:6:60',
    ],
  ],
];

describe('the failure lines of each runner', () => {
  it('every fixture is checked', () => {
    expect(EXPECTED.map(([file]) => file).sort()).toEqual(
      fs
        .readdirSync(FIXTURES)
        .filter((f) => f.endsWith('.txt'))
        .sort(),
    );
  });

  it.each(EXPECTED)('%s', (file, lines) => {
    expect(failureLines(output(file))).toEqual(lines);
  });

  it('a passing run, a build error and plain prose have none', () => {
    expect(failureLines('============================= 4 passed in 0.01s =============================\n')).toEqual([]);
    expect(failureLines('src/index.ts(3,7): error TS2322: Type string is not assignable to type number.\n')).toEqual([]);
    expect(failureLines('The README example is still missing.\nAdd it and run the tests.')).toEqual([]);
  });

  it('past `max`, every failing test is still named and the reasons fill what room is left', () => {
    const many = Array.from({ length: 30 }, (_, i) => `FAILED tests/test_x.py::test_${i} - assert ${i} == 0\nE       assert ${i} == 0`).join('\n');
    const lines = failureLines(many, 12);
    expect(lines).toHaveLength(12);
    expect(lines.every((line) => line.startsWith('FAILED '))).toBe(true);
    const few = failureLines(output('pytest-q.txt'), 4);
    expect(few).toEqual([
      '_______________________________ test_parse_empty _______________________________',
      '____________________________ test_garbage_rejected _____________________________',
      "FAILED tests/test_parse.py::test_parse_empty - AssertionError: assert [] == ['']",
      'FAILED tests/test_parse.py::test_garbage_rejected - AssertionError: empty fie...',
    ]);
  });
});

describe('failure lines of any output', () => {
  const lineOf = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.constantFrom(
      'FAILED t.py::x - e',
      'E       assert 1 == 2',
      '  ● a › b',
      '--- FAIL: TestX (0.00s)',
      "thread 'x' panicked at a.rs:1:1:",
      'not ok 1 - x',
      '\x1b[31m✖ x\x1b[0m',
      '  1) x',
      '       y:',
    ),
  );
  const outputs = fc.array(lineOf, { maxLength: 60 }).map((lines) => lines.join('\n'));

  it('at most `max` lines, each a line of the output (colour codes off, clipped to 300 characters), in its order', () => {
    fc.assert(
      fc.property(outputs, fc.integer({ min: 0, max: 20 }), (text, max) => {
        const found = failureLines(text, max);
        expect(found.length).toBeLessThanOrEqual(max);
        const indexes = failureLineIndexes(text.split(/\r?\n/), max);
        expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
        expect(new Set(indexes).size).toBe(indexes.length);
        const lines = text.split(/\r?\n/).map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
        for (const [k, i] of indexes.entries()) expect(lines[i]!.startsWith(found[k]!.replace(/…$/, ''))).toBe(true);
        for (const line of found) expect(line.length).toBeLessThanOrEqual(300);
      }),
    );
  });
});
