import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginChecker } from '../../src/checkers/plugin-loader.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { checkContext } from '../checkers/check-context.js';
import { failingTests } from '../../plugins/test-gate.js';
import { needs } from '../support/tools.js';

const pluginPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'test-gate.ts');
let project: string;
beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-test-gate-')));
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const write = (name: string, text: string) => fs.writeFileSync(path.join(project, name), text);
// Loaded the way ccc loads it: by path, through the plugin loader, with no build step.
const gate = (options: Record<string, unknown>) => loadPluginChecker(pluginPath, options, { config: defaultConfig(), sources: {}, cwd: project });
const signal = new AbortController().signal;

describe('the test-gate plugin', () => {
  it('on a node:test project: names the failing tests, then passes once they are fixed', async () => {
    write('package.json', JSON.stringify({ name: 'fixture', type: 'module', scripts: { test: 'node --test' } }));
    write(
      'math.test.js',
      `import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from './math.js';\ntest('adds numbers', () => assert.equal(add(1, 2), 3));\ntest('adds zero', () => assert.equal(add(0, 5), 5));\ntest('is fine', () => {});\n`,
    );
    write('math.js', 'export const add = (a, b) => a - b;\n');
    const checker = await gate({});
    expect(checker.name).toBe('test-gate');
    const ctx = checkContext(project, { timeoutSeconds: 60, env: { ...process.env } });
    const verdict = await checker.check(ctx, signal);
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toMatch(/^The tests fail: `npm test` exited with code 1\.\nFailing tests:\n- adds numbers\n- adds zero\n/);
    expect(verdict.feedback).toContain('Last lines of the output:');
    expect(verdict.feedback).not.toMatch(/^- is fine$/m);
    expect(verdict.evidence).toEqual([
      { command: 'npm test', exit_code: 1, failed: 2, failures: [expect.stringMatching(/^adds numbers: /), expect.stringMatching(/^adds zero: /)] },
    ]);

    write('math.js', 'export const add = (a, b) => a + b;\n');
    // Its green run is the verdict's evidence, with the count node:test printed: "verified by: npm test (3 tests)".
    expect(await checker.check(ctx, signal)).toEqual({
      completed: true,
      feedback: '`npm test` passed',
      evidence: [{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 3 }],
    });
  });

  it('on a pytest project, with its own command: names path::test', async ({ skip }) => {
    needs({ skip }, 'pytest');
    write('test_calc.py', 'def test_ok():\n    assert True\n\ndef test_divides():\n    assert 1 / 1 == 2\n');
    const checker = await gate({ command: 'python3 -m pytest -q -p no:cacheprovider', timeout_seconds: 60 });
    const verdict = await checker.check(checkContext(project, { timeoutSeconds: 60, env: { ...process.env } }), signal);
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toContain('`python3 -m pytest -q -p no:cacheprovider` exited with code 1');
    expect(verdict.feedback).toContain('- test_calc.py::test_divides');
    expect(verdict.feedback).not.toContain('::test_ok');
  });

  it('a test run past the time limit is feedback too', async () => {
    const checker = await gate({ command: 'echo starting; sleep 60' });
    const verdict = await checker.check(checkContext(project, { timeoutSeconds: 4 }), signal);
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toMatch(/^The tests did not finish: `echo starting; sleep 60` ran past its time limit/);
    expect(verdict.feedback).toContain('starting');
  });

  it('bad options are a plugin error naming the module', async () => {
    await expect(gate({ command: '' })).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringMatching(/test-gate\.ts" factory threw: option "command" must be a non-empty string/),
    });
    await expect(gate({ cmd: 'make test' })).rejects.toThrow(/unknown option\(s\) cmd/);
  });
});

describe('finding the failing tests in a runner output', () => {
  it('vitest: the file > suite > test form wins over the short one, once each', () => {
    const out = [
      ' ❯ test/math.test.ts (3 tests | 2 failed) 7ms',
      '   × math > adds 3ms',
      '     → expected 2 to be 3',
      '   ✓ math > keeps 1ms',
      '   × math > subtracts',
      ' FAIL  test/math.test.ts > math > adds',
      'AssertionError: expected 2 to be 3',
    ].join('\n');
    expect(failingTests(out)).toEqual(['test/math.test.ts > math > adds', 'math > subtracts']);
  });

  it('jest, go, TAP (skips are not failures), and colour codes', () => {
    expect(failingTests(' FAIL  src/sum.test.js\n  sum\n    ✓ adds 1 + 2 (2 ms)\n    ✕ adds 2 + 2 to equal 5 (1 ms)\n')).toEqual([
      'src/sum.test.js',
      'adds 2 + 2 to equal 5',
    ]);
    expect(failingTests('=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n    math_test.go:8: got 2\n--- FAIL: TestSub/negative (0.00s)\nFAIL\n')).toEqual([
      'TestAdd',
      'TestSub/negative',
    ]);
    expect(failingTests('TAP version 13\nnot ok 1 - parses input\nok 2 - other\nnot ok 3 - later # SKIP flaky\nnot ok 4 - wip # TODO\n')).toEqual([
      'parses input',
    ]);
    expect(failingTests('\u001b[31m✖ colourful failure\u001b[39m \u001b[90m(3.1ms)\u001b[39m\n✖ failing tests:\n')).toEqual(['colourful failure']);
  });

  it('never throws and names only text that is in the output (fuzzed)', () => {
    const line = fc.oneof(fc.string(), fc.constantFrom(' FAIL  a > b', '× b', 'not ok 2 - x', 'FAILED a.py::t - e', '--- FAIL: TestX', '✕ y (1 ms)'));
    fc.assert(
      fc.property(fc.array(line), (lines) => {
        const output = lines.join('\n');
        for (const name of failingTests(output)) expect(output).toContain(name);
      }),
    );
  });
});
