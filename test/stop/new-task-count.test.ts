/**
 * A supervised session on the real claude, task after task: each new task starts the review count
 * afresh. A hook that reaches ccc within a few ms does so before Claude Code has flushed the turn
 * to the transcript; a stop counted from the stale transcript would take the new task for the old
 * one's next round (src/loop/review-stop.ts reads again until the turn is there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { sessionStatePath } from '../../src/state/paths.js';
import { it } from '../support/fixtures.js';

describe('ccc --supervisor, several tasks in one session', () => {
  it('each new task counts its reviews from 1', async ({ rig }) => {
    const { server, world, h } = await rig.launch((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'all good' } } : { text: 'Done.' }));
    const stateDir = path.dirname(sessionStatePath(world.claudeDir, 'x'));
    const iteration = () => {
      const file = fs.readdirSync(stateDir).find((f) => /^supervisor-.*\.json$/.test(f));
      return file ? (JSON.parse(fs.readFileSync(path.join(stateDir, file), 'utf8')) as { iteration: number; prompt_count: number }) : undefined;
    };
    for (let task = 1; task <= 4; task++) {
      await h.type(`task ${task}`);
      h.press('\r');
      await expect.poll(() => server.byKind('review').length, { timeout: 60_000 }).toBe(task);
      await expect.poll(() => iteration()?.prompt_count, { timeout: 30_000 }).toBe(task);
      expect(iteration()?.iteration).toBe(1);
      await h.waitForScreen(/❯\s*$/m, 30_000);
    }
  });
});
