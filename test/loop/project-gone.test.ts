/**
 * The project removed while a headless run goes on, on the real claude against the scripted model
 * server: the run ends with a named error (exit 2, one line, no stack), and the log's last line
 * says how it ended, whether the directory went during the agent's turn or during a review.
 */
import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { lastLogLine, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';

describe('the project removed mid-run', () => {
  it.for([
    { when: "during the agent's turn", removeAt: 'agent' as const },
    { when: 'during a review', removeAt: 'review' as const },
  ])('$when: exit 2 naming the directory, no stack, and the log ends saying so', { timeout: 120_000 }, async ({ removeAt }, { rig }) => {
    let removed = false;
    const { world } = await rig.start((r: RecordedRequest): Reply => {
      if (!removed && r.kind === removeAt) {
        removed = true;
        fs.rmSync(world.cwd, { recursive: true, force: true });
      }
      return r.kind === 'review' ? { verdict: { completed: false, feedback: 'the tests are missing' } } : { text: 'Working on it.' };
    });
    const run = await runCcc(world, ['--supervisor', '-p', 'add the tests']);
    expect(removed).toBe(true);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`ccc: the project directory ${world.cwd} is gone (removed or moved during the run)`);
    expect(run.stderr).toMatch(/-- --resume [0-9a-f-]{36}/);
    expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(lastLogLine(world)).toMatch(/exit_code=2 mode=headless code=PROJECT_GONE run ended: error: the project directory .* is gone/);
  });
});
