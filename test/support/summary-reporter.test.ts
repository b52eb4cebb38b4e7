/**
 * The summary reporter on a real vitest run with CI's one retry: a test that passed only on its
 * retry is listed by name above the closing line, so a race a loaded machine shows once is not
 * lost in a green run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './claude-env.js';
import { runProcess } from './run-process.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'summary');

describe('the summary reporter', () => {
  it('lists each test that passed only on a retry, and counts it as passed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-summary-'));
    try {
      const vitest = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
      const run = await runProcess(process.execPath, [vitest, 'run', '--root', fixtures, '--config', path.join(fixtures, 'summary.config.ts')], {
        cwd: repoRoot,
        env: { ...process.env, CI: '', SUMMARY_ATTEMPTS_FILE: path.join(dir, 'attempts') },
        timeoutMs: 50_000,
      });
      expect(run.code, run.stderr).toBe(1); // the test that fails on both tries
      expect(run.stdout).toContain(
        'passed only on a retry (the first try failed: a race to find): 1 test\n  test/fixtures/summary/retried.fixture.ts: passes on its retry\n',
      );
      const listed = /a race to find[^\n]*\n((?: {2}[^\n]*\n)*)/.exec(run.stdout)?.[1] ?? '';
      expect(listed).not.toContain('passes at once');
      expect(run.stdout).toMatch(/\nvitest: 2 passed, 1 failed\n/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
