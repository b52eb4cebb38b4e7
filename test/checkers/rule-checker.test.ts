import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ruleChecker } from '../../src/checkers/rule-checker.js';
import { checkContext, processesMentioning } from './check-context.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-rule-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const signal = () => new AbortController().signal;

describe('the rule checker', () => {
  it('a failing command: the feedback names it, its exit code, and the last 40 lines of stdout and stderr', async () => {
    const checker = ruleChecker({ commands: ['for i in $(seq 1 100); do echo "out $i"; done; echo "the real error" >&2; exit 3'] });
    const verdict = await checker.check(checkContext(dir), signal());
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toContain('for i in $(seq 1 100)');
    expect(verdict.feedback).toContain('exit code 3');
    expect(verdict.feedback).toContain('the real error');
    expect(verdict.feedback).toContain('out 100');
    expect(verdict.feedback).not.toMatch(/out 61\n/);
    expect(verdict.feedback).toMatch(/out 62\n/);
  });

  it('runs the commands in the project directory with the session environment, in order, stopping at the first failure', async () => {
    const checker = ruleChecker({ commands: ['test "$(pwd)" = "$EXPECTED_DIR"', 'test -f DONE', 'touch SHOULD_NOT_RUN'] });
    const verdict = await checker.check(checkContext(dir, { env: { PATH: process.env.PATH, EXPECTED_DIR: dir } }), signal());
    expect(verdict).toEqual({
      completed: false,
      feedback: expect.stringContaining('The command `test -f DONE` failed with exit code 1'),
      evidence: [
        // A check that runs no test runner is no test evidence, though it passed.
        { command: 'test "$(pwd)" = "$EXPECTED_DIR"', exit_code: 0, not_counted: 'it runs `test $(pwd) = $EXPECTED_DIR`: no test runner ccc knows' },
        { command: 'test -f DONE', exit_code: 1 },
      ],
    });
    expect(verdict.feedback).toContain('It printed nothing.');
    expect(fs.existsSync(path.join(dir, 'SHOULD_NOT_RUN'))).toBe(false);

    fs.writeFileSync(path.join(dir, 'DONE'), '');
    const passed = await checker.check(checkContext(dir, { env: { PATH: process.env.PATH, EXPECTED_DIR: dir } }), signal());
    expect(passed.completed).toBe(true);
    expect(passed.feedback).toMatch(/^all rules passed: /);
    expect(passed.feedback).toContain('`test -f DONE` exited 0');
    expect(fs.existsSync(path.join(dir, 'SHOULD_NOT_RUN'))).toBe(true);
  });

  it('checks the last assistant message: must_match, must_not_match (with /flags/), and the completion marker on its own line', async () => {
    const checker = ruleChecker({ must_match: ['tests? pass'], must_not_match: ['/todo|not yet/i'], require_marker: true });
    const bad = await checker.check(checkContext(dir, { lastAssistantMessage: 'Not yet finished [TASK_COMPLETED] maybe' }), signal());
    expect(bad.completed).toBe(false);
    expect(bad.feedback).toContain('[TASK_COMPLETED] on a line of its own');
    expect(bad.feedback).toContain('does not match tests? pass');
    expect(bad.feedback).toContain('matches /todo|not yet/i (rule must_not_match): "Not yet"');

    const good = await checker.check(checkContext(dir, { lastAssistantMessage: 'All tests pass.\n  [TASK_COMPLETED]  \n' }), signal());
    expect(good).toEqual({
      completed: true,
      feedback: 'all rules passed: completion marker present; matches tests? pass; does not match /todo|not yet/i',
    });
  });

  it('a command past its time limit becomes feedback, and its whole process tree is killed', async () => {
    const marker = `ccc-rule-sleep-${process.pid}-${Date.now()}`;
    const nap = `299.${process.pid}${Date.now() % 100000}`; // a unique sleep length names the grandchild
    fs.writeFileSync(path.join(dir, `${marker}.sh`), `sleep ${nap} &\nsleep 301\n`);
    const checker = ruleChecker({ commands: [`sh ./${marker}.sh`] });
    const verdict = await checker.check(checkContext(dir, { timeoutSeconds: 2 }), signal());
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toMatch(/did not finish within \d+s and was stopped/);
    // Teardown is asynchronous: wait until neither the script nor its backgrounded grandchild runs.
    await expect.poll(async () => [...(await processesMentioning(marker)), ...(await processesMentioning(nap))], { timeout: 10_000 }).toEqual([]);
  });

  it('refuses bad options when the pipeline is built, naming the key', () => {
    expect(() => ruleChecker({ must_match: ['ok', '(unclosed'] })).toThrow(
      /Invalid option "must_match\[1\]" of the rule checker.*"\(unclosed".*valid regular expression/,
    );
    expect(() => ruleChecker({ must_match: ['(unclosed'] })).toThrowError(expect.objectContaining({ code: 'PLUGIN_INVALID' }) as Error);
    expect(() => ruleChecker({ comands: ['x'] })).toThrow(/Invalid option "comands" of the rule checker.*unknown/);
    expect(() => ruleChecker({ commands: 'npm test' })).toThrow(/"commands".*a list of strings/);
    expect(() => ruleChecker({})).toThrow(/at least one rule/);
    expect(() => ruleChecker({ require_marker: 'yes' })).toThrow(/"require_marker".*true or false/);
    expect(() => ruleChecker({ commands: ['true'], timeout_seconds: -1 })).toThrow(/"timeout_seconds"/);
  });

  it('takes a custom name, so two rule checkers can be told apart in logs', () => {
    expect(ruleChecker({ commands: ['true'], name: 'lint' }).name).toBe('lint');
    expect(ruleChecker({ commands: ['true'] }).name).toBe('rule');
  });
});
