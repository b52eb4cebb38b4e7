/**
 * `ccc --supervisor -p "/goal …"` (docs/design/stop-path.md, "A /goal beside ccc"), on the real claude:
 * the goal's evaluator loops inside each `claude -p` turn, and ccc's reviewer, after the turn,
 * judges the goal's condition as part of the task.
 */
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { goalAnswer } from '../support/model-server.js';

const CONDITION = 'the file done.txt exists';

describe('/goal in a headless supervised run', () => {
  it("gives the reviewer the goal's condition, and the reviewer's fork is not sent back by the goal", async ({ rig }) => {
    const { server, world } = await rig.start((r) => {
      if (r.kind === 'goal') return goalAnswer({ ok: false, reason: 'GOAL-MISSING' });
      if (r.kind === 'review') return { verdict: { completed: true, feedback: 'verified' } };
      return { text: `agent answer ${r.index}` };
    });
    const run = await runCcc(world, ['--supervisor', '--max-iterations', '2', '-p', `/goal ${CONDITION}`]);
    expect(run.code).toBe(0);
    const reviews = server.byKind('review');
    // One review request: the goal's evaluator ran at the reviewer's stop too (the fork inherits the
    // goal), but its reason never reached the reviewer.
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.lastUserText).toContain(`1. /goal ${CONDITION}`);
    expect(reviews[0]!.lastUserText).toContain(`## The session goal (set with /goal)\n${CONDITION}`);
    expect(run.stderr).toMatch(/⚠ complete \(claude, unverified/);
  }, 120_000);
});
