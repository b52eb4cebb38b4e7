/**
 * A child killed by a signal is said as one, everywhere a child's end is worded: Node reports it
 * as code null, and "exited with code null" told nobody anything. Real processes killed by real
 * signals: shell commands of the rule and hook checkers and of the test-gate plugin here, the real
 * claude (reviewer, headless agent, kanban agent) in test/loop/child-signals.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookChecker } from '../../src/checkers/hook-checker.js';
import { loadPluginChecker } from '../../src/checkers/plugin-loader.js';
import { ruleChecker } from '../../src/checkers/rule-checker.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { childEndText, signalName } from '../../src/process/child-end.js';
import { runChild } from '../../src/process/child-process.js';
import { checkContext } from '../checkers/check-context.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-child-end-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const signal = () => new AbortController().signal;
// The shell ccc starts kills itself: its end is the signal's, not an exit code.
const SELF_KILL = 'kill -KILL $$';

describe("a child's end in words", () => {
  it('names the signal by name, from a name or a number, and the exit code otherwise', () => {
    expect(childEndText({ exitCode: null, signal: 'SIGKILL' })).toBe('was killed by SIGKILL');
    expect(childEndText({ exitCode: null, signal: 15 })).toBe('was killed by SIGTERM');
    expect(childEndText({ exitCode: 3, signal: null })).toBe('exited with code 3');
    expect(childEndText({ exitCode: null, signal: null })).toBe('ended without an exit code or a signal');
    expect(signalName(99)).toBe('signal 99');
  });

  it('a real child killed by a signal: the child-process edge reports the signal, never a code', async () => {
    const result = await runChild({ command: 'sh', args: ['-c', SELF_KILL] });
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(childEndText(result)).toBe('was killed by SIGKILL');
  });

  it("the rule checker's feedback says the command was killed by SIGKILL", async () => {
    const verdict = await ruleChecker({ commands: [SELF_KILL] }).check(checkContext(dir), signal());
    expect(verdict.feedback).toContain(`The command \`${SELF_KILL}\` was killed by SIGKILL.`);
    expect(verdict.feedback).not.toContain('null');
  });

  it("the hook checker's failure says its command was killed by SIGTERM", async () => {
    const error = await Promise.resolve(hookChecker({ command: 'cat > /dev/null; kill -TERM $$' }).check(checkContext(dir), signal())).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('hook `cat > /dev/null; kill -TERM $$` was killed by SIGTERM');
  });

  it("the test-gate plugin's feedback says the tests were killed by SIGKILL", async () => {
    const pluginPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'test-gate.ts');
    const gate = await loadPluginChecker(pluginPath, { command: SELF_KILL }, { config: defaultConfig(), sources: {}, cwd: dir });
    try {
      const verdict = await gate.check(checkContext(dir), signal());
      expect(verdict.feedback).toContain(`The tests fail: \`${SELF_KILL}\` was killed by SIGKILL.`);
    } finally {
      await gate.dispose?.();
    }
  });
});
