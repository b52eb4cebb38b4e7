/** claude -p refuses piped stdin past 10 MiB before any request: the ground of CLAUDE_STDIN_LIMIT_BYTES. */
import { describe, expect, it } from 'vitest';
import { CLAUDE_STDIN_LIMIT_BYTES } from '../../src/user-file.js';
import { claudeBin, TEST_API_KEY } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome } from '../support/temp-home.js';

describe('claude stdin limit', () => {
  it('one character past 10 MiB on stdin: exit 1, "piped stdin input exceeds 10MB"', async () => {
    const t = makeTempHome();
    try {
      const r = await runProcess(claudeBin, ['-p'], {
        cwd: t.project,
        env: { ...t.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: TEST_API_KEY },
        input: 'a'.repeat(CLAUDE_STDIN_LIMIT_BYTES + 1),
        timeoutMs: 60_000,
      });
      expect(r.stdout + r.stderr).toContain('piped stdin input exceeds 10MB');
      expect(r.code).toBe(1);
    } finally {
      t.cleanup();
    }
  });
});
