/** The one derivation of a verdict's outcome and its words, over every strength of evidence; old records read back too. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strengthOf, unansweredFailures, validEvidence, type Evidence } from '../../src/checkers/evidence.js';
import { isVerification, verificationDetails, verificationOf, VERIFICATIONS, type Verification } from '../../src/checkers/verification.js';

const whole = (command: string, tests?: number, extra: Partial<Evidence> = {}): Evidence => ({
  command,
  exit_code: 0,
  scope: 'whole',
  ...(tests === undefined ? {} : { tests }),
  ...extra,
});
const focused = (command: string, tests: number, extra: Partial<Evidence> = {}): Evidence => ({ command, exit_code: 0, scope: 'focused', tests, ...extra });
const failing = (command: string, exit = 1, extra: Partial<Evidence> = {}): Evidence => ({ command, exit_code: exit, ...extra });
const none = (command: string, why: string): Evidence => ({ command, exit_code: 0, not_counted: why });

const CASES: Array<[string, boolean, Evidence[] | undefined, Verification, string]> = [
  ['a whole run', true, [whole('npm test', 12)], 'verified', 'verified by: npm test (12 tests)'],
  ['one test', true, [whole('cargo test', 1)], 'verified', 'verified by: cargo test (1 test)'],
  ['no count', true, [whole('make test')], 'verified', 'verified by: make test'],
  [
    'skipped and xfailed are not passed',
    true,
    [whole('python3 -m pytest', 3, { not_passed: { skipped: 1, xfailed: 1 } })],
    'verified',
    'verified by: python3 -m pytest (3 of 5 tests, 1 skipped, 1 xfailed)',
  ],
  [
    'a filter',
    true,
    [focused("python3 -m pytest -k 'not garbage'", 3, { not_passed: { deselected: 1 }, focus: 'a filter (`-k`)' })],
    'focused',
    "focused: python3 -m pytest -k 'not garbage' (3 tests, 1 deselected; a filter (`-k`))",
  ],
  ['a record older than scope', true, [{ command: 'npm test', exit_code: 0, tests: 2 }], 'focused', 'focused: npm test (2 tests)'],
  ['focused then whole', true, [focused('npm test -- a.test.js', 1), whole('npm test', 4)], 'verified', 'verified by: npm test (4 tests)'],
  [
    'weakened tests',
    true,
    [whole('python3 -m pytest', 2, { changed_tests: ['conftest.py', 'tests/test_calc.py'] })],
    'tests-changed',
    'verified by tests the agent changed: conftest.py, tests/test_calc.py (python3 -m pytest (2 tests))',
  ],
  ['nothing ran', true, [], 'unverified', 'unverified'],
  ['no checker evidence', true, undefined, 'unverified', 'unverified'],
  ['0 tests', true, [whole('cargo test', 0)], 'unverified', 'unverified: cargo test: it ran no test'],
  [
    'no runner',
    true,
    [none('npm test', '`npm test` runs `echo 5 passed`: no test runner')],
    'unverified',
    'unverified: npm test: `npm test` runs `echo 5 passed`: no test runner',
  ],
  ['no exit code', true, [{ command: 'npm test | tail', exit_code: null }], 'unverified', 'unverified: npm test | tail: no exit code'],
  [
    'complete over its own failing run',
    true,
    [failing('python3 -m pytest -q', 1, { failures: ['tests/test_x.py::test_garbage: assert 1 == 2'] })],
    'unverified',
    'unverified: failed: python3 -m pytest -q (exit 1: tests/test_x.py::test_garbage)',
  ],
  [
    'a failure a focused run of another command does not answer',
    true,
    [failing('python3 -m pytest'), focused("python3 -m pytest -k 'not garbage'", 3)],
    'unverified',
    'unverified: failed: python3 -m pytest (exit 1)',
  ],
  [
    'a failure answered by the same command passing',
    true,
    [failing('npm test'), whole('npm  test', 3)],
    'verified',
    'verified by: npm test (3 tests); failed before: npm test (exit 1)',
  ],
  [
    'a focused failure answered by the whole suite',
    true,
    [failing('npm test -- a.test.js', 1, { failures: ['a', 'b'] }), whole('npm test', 3)],
    'verified',
    'verified by: npm test (3 tests); failed before: npm test -- a.test.js (exit 1: a and 1 more)',
  ],
  [
    'pytest exit 5: ran no test, not a failure',
    true,
    [failing('pytest -k nomatch', 5, { not_counted: 'it ran no test' })],
    'unverified',
    'unverified: pytest -k nomatch: it ran no test',
  ],
  ['not complete', false, [failing('npm test'), { command: 'make lint', exit_code: null }], 'failed', 'failed: npm test (exit 1), make lint (no exit code)'],
  ['not complete, tests green', false, [whole('npm test', 3)], 'failed', 'tests passed: npm test (3 tests)'],
  ['not complete over a focused run (require_evidence)', false, [focused('pytest -k x', 2)], 'failed', 'focused: pytest -k x (2 tests)'],
  [
    'not complete over weakened tests',
    false,
    [whole('pytest', 2, { changed_tests: ['t.py'] })],
    'failed',
    'on tests the agent changed: t.py (pytest (2 tests))',
  ],
  [
    'not complete over no test run',
    false,
    [none('npm test', 'it runs `true`: no test runner ccc knows')],
    'failed',
    'no test evidence: npm test: it runs `true`: no test runner ccc knows',
  ],
  ['not complete without runs', false, [], 'failed', ''],
];

describe('what a verdict comes to', () => {
  for (const [name, completed, evidence, verification, text] of CASES) {
    it(`${name}: ${verification}`, () => {
      expect(verificationOf(completed, evidence)).toBe(verification);
      expect(verificationDetails(completed, evidence)).toBe(text);
    });
  }

  it('a long command is cut', () => {
    expect(verificationDetails(true, [whole(`pytest -k "${'x'.repeat(80)}"`)])).toMatch(/^verified by: pytest -k "x{48}…$/);
  });

  it('only a whole run that passed on tests the agent did not weaken is verified; any evidence, read back, gives one known outcome', () => {
    const record = fc.record(
      {
        command: fc.constantFrom('npm test', 'pytest', 'pytest -k x'),
        exit_code: fc.oneof(fc.constant(0), fc.constant(null), fc.integer({ min: 1, max: 5 })),
        tests: fc.nat(5),
        not_counted: fc.constant('it ran no test'),
        scope: fc.constantFrom('whole', 'focused', 'bogus'),
        changed_tests: fc.constant(['t.py']),
      },
      { requiredKeys: ['command', 'exit_code'] },
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), fc.boolean(), (raw, completed) => {
        const evidence = validEvidence(raw)!;
        const verification = verificationOf(completed, evidence);
        expect(isVerification(verification)).toBe(true);
        expect(VERIFICATIONS).toContain(verification);
        if (verification === 'verified') {
          expect(evidence.some((e) => strengthOf(e) === 'whole')).toBe(true);
          expect(evidence.some((e) => e.changed_tests?.length && strengthOf(e) !== 'none' && strengthOf(e) !== 'failing')).toBe(false);
          expect(unansweredFailures(evidence)).toEqual([]);
        }
        const text = verificationDetails(completed, evidence);
        if (completed)
          expect(
            text.startsWith(
              verification === 'tests-changed' ? 'verified by tests the agent changed' : verification === 'verified' ? 'verified by' : verification,
            ),
          ).toBe(true);
        // A failing run is named in the text whatever the outcome.
        for (const e of evidence.filter((r) => strengthOf(r) === 'failing')) expect(text).toContain(`(exit ${e.exit_code}`);
      }),
    );
  });
});
