/**
 * `ccc --supervisor -p "/goal …"` (docs/design/stop-path.md, "A /goal beside ccc"), on the real claude:
 * the goal's evaluator loops inside each `claude -p` turn, and ccc's reviewer, after the turn,
 * judges the goal's condition as part of the task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { goalAnswer, startModelServer, type ModelServer, type Scenario } from '../support/model-server.js';

const CONDITION = 'the file done.txt exists';

describe('/goal in a headless supervised run', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  async function setup(scenario: Scenario) {
    server = await startModelServer(scenario);
    world = makeClaudeWorld({ modelUrl: server.url });
    writeSupervisorPrompt(world);
  }

  it("gives the reviewer the goal's condition, and the reviewer's fork is not sent back by the goal", async () => {
    await setup((r) => {
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
