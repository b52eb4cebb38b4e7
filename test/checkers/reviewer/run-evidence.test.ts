/** Whether a verification command that exited 0 ran tests and passed: its form, claude's wrappers, the runner's summary. */
import { describe, expect, it } from 'vitest';
import { readTestRun } from '../../../src/checkers/reviewer/run-evidence.js';

const PYTEST = '1 passed, 1 skipped in 0.02s\n';

describe('readTestRun', () => {
  it('a form that runs no test never counts, whatever it printed', () => {
    expect(readTestRun([{ family: 'pytest', args: ['--co', '-q'] }], PYTEST)).toEqual({ counts: false, why: 'it only collects the tests (`--co`)' });
    expect(readTestRun([{ family: 'pytest', args: ['--collect-only'] }], PYTEST).counts).toBe(false);
    expect(readTestRun([{ family: 'cargo', args: ['--no-run'] }], '').counts).toBe(false);
    expect(readTestRun([{ family: 'cargo', args: ['--lib', '--', '--list'] }], '').counts).toBe(false);
    expect(readTestRun([{ family: 'go', args: ['-list', '.', './...'] }], 'ok  \tx\t0.1s\n').counts).toBe(false);
    expect(readTestRun([{ family: 'go', args: ['--list=Test'] }], 'ok  \tx\t0.1s\n').counts).toBe(false);
    expect(readTestRun([{ family: 'jest', args: ['--listTests'] }], '').counts).toBe(false);
    expect(readTestRun([{ family: 'vitest', args: ['list'] }], 'test/a.test.js > adds')).toEqual({ counts: false, why: 'it only lists the tests (`list`)' });
    expect(readTestRun([{ family: 'vitest', args: ['-t', 'add', 'list'] }], '').counts).toBe(false);
    // A test name or a path filter that happens to be `list` is no command.
    expect(readTestRun([{ family: 'vitest', args: ['run', 'list'] }], ' Tests  2 passed (2)')).toEqual({ counts: true, tests: 2 });
    expect(readTestRun([{ family: 'vitest', args: ['-t', 'list'] }], ' Tests  2 passed (2)')).toEqual({ counts: true, tests: 2 });
    expect(readTestRun([{ family: 'mocha', args: ['--dry-run'] }], '  3 passing (1ms)').counts).toBe(false);
    expect(readTestRun([{ family: 'rspec', args: ['--dry-run'] }], '3 examples, 0 failures').counts).toBe(false);
  });

  it('a runner ccc knows must show its summary: the number of tests, or why it does not count', () => {
    expect(readTestRun([{ family: 'pytest', args: ['-q'] }], PYTEST)).toEqual({ counts: true, tests: 1 });
    expect(readTestRun([{ family: 'pytest', args: ['-k', 'nomatch'] }], '2 deselected in 0.01s')).toEqual({ counts: false, why: 'it ran no test' });
    expect(readTestRun([{ family: 'pytest', args: ['-qq'] }], '.s  [100%]')).toEqual({ counts: false, why: 'its output shows no test summary that ccc reads' });
    expect(readTestRun([{ family: 'node-test', args: [] }], '# tests 0\n# pass 0\n# fail 0\n')).toEqual({ counts: false, why: 'it ran no test' });
    expect(readTestRun([{ family: 'go', args: [] }], 'ok  \tx\t0.1s\n')).toEqual({ counts: true });
  });

  it('a command whose runner ccc does not know counts by its exit code, unless its output shows a runner that ran none', () => {
    expect(readTestRun([{ family: 'make', args: [] }], 'quick checks pass')).toEqual({ counts: true });
    expect(readTestRun([{ family: 'opaque', args: [] }], `> x test\n> node --test\n\n# tests 3\n# pass 3\n# fail 0`)).toEqual({ counts: true, tests: 3 });
    expect(readTestRun([{ family: 'make', args: [] }], 'no tests ran in 0.01s')).toEqual({ counts: false, why: 'it ran no test' });
    expect(
      readTestRun(
        [
          { family: 'opaque', args: [] },
          { family: 'pytest', args: [] },
        ],
        'done',
      ),
    ).toEqual({ counts: true });
  });

  it("claude's wrappers: a command still running does not count; a long output cut by claude counts by its exit code unless what is left shows a failure", () => {
    expect(readTestRun([{ family: 'opaque', args: [] }], '[still running] The command did not finish within its 2s timeout.').counts).toBe(false);
    const cut =
      '<persisted-output>\nOutput too large (97.7KB). Full output saved to: /x.txt\n\nPreview (first 2KB):\nrunning 0 tests\ntest result: ok. 0 passed; 0 failed;\n...\n</persisted-output>';
    expect(readTestRun([{ family: 'cargo', args: [] }], cut)).toEqual({ counts: true });
    expect(readTestRun([{ family: 'pytest', args: [] }], `<persisted-output>\nPreview\n1 failed in 0.1s\n</persisted-output>`).counts).toBe(false);
  });
});
