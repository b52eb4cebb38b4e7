/**
 * In an interactive session the cost caps count the agent's own turns (as claude's status line
 * reports them), not only the reviews: an agent whose turns alone exceed the cap is wound down
 * and stopped, and the user's own status line keeps showing. The per-task cap counts each task
 * from its own start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { readLog } from '../support/ccc-run.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';

const WIND_DOWN = 'The supervised run has reached a limit';
const tiny = { input_tokens: 10, output_tokens: 5 };

/** Each agent answer is a million input tokens (dollars at any price); each review is a few tokens. */
function scenario(r: RecordedRequest): Reply {
  if (r.kind === 'review') return { verdict: { completed: false, feedback: 'FEEDBACK not done yet' }, usage: tiny };
  return { text: `agent answer ${r.index}`, usage: { input_tokens: 1_000_000, output_tokens: 0 } };
}

function config(supervisor: Record<string, unknown>) {
  return (w: { cwd: string }) => fs.writeFileSync(path.join(w.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { max_iterations: 10, ...supervisor } }));
}

describe('interactive spend', () => {
  it("an agent whose turns alone exceed the cap gets the wind-down turn and is stopped; the user's status line still shows", async ({ rig }) => {
    const { server, world, h } = await rig.launch(scenario, {
      prepare(w) {
        config({ max_cost_usd: 0.5 })(w);
        fs.mkdirSync(path.join(w.cwd, '.claude'), { recursive: true });
        fs.writeFileSync(
          path.join(w.cwd, '.claude', 'settings.json'),
          JSON.stringify({ statusLine: { type: 'command', command: 'cat > /dev/null; echo MY-OWN-LINE' } }),
        );
      },
    });
    await h.waitForScreen(/MY-OWN-LINE/, 60_000);
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/cost cap of \$0\.5 was reached/, 120_000);
    await h.waitForScreen(/given one last\s+turn/, 60_000);
    const agent = server.byKind('agent').filter((r) => r.lastUserText.includes(`${WIND_DOWN} (the cost cap`));
    expect(agent.length).toBeGreaterThanOrEqual(1);
    expect(server.byKind('review')).toHaveLength(1);
    // The title shows the verdict with the spend against the cap, then why the run stopped.
    await h.waitForOutput(/\]0;ccc:[^\x07]*spent \$\d+\.\d\d of \$0\.50/, 10_000);
    await h.waitForOutput(/\]0;ccc:[^\x07]*cost cap/, 10_000);
    expect(readLog(world)).toMatch(/cost cap of \$0\.5 was reached \(\$\d+\.\d+ spent by the agent and the reviewer\)/);
  }, 240_000);

  it('the per-task cap counts each task from its start: a second task in the same session starts from 0', async ({ rig }) => {
    // An agent answer costs 100k input tokens (a fifth of the cap at the pinned claude's price or more); the first task is done at its second review.
    const perTask = (r: RecordedRequest): Reply => {
      // Each feedback its own, so that the no-progress guard stays out of it.
      const feedback = ['the parser is missing', 'all done', 'tests for the lexer fail', 'the README lacks usage', 'a flag is undocumented'][r.index % 5]!;
      if (r.kind === 'review') return { verdict: { completed: r.index === 1, feedback }, usage: tiny };
      return { text: `agent answer ${r.index}`, usage: { input_tokens: 100_000, output_tokens: 0 } };
    };
    const { server, world, h } = await rig.launch(perTask, { prepare: config({ max_task_cost_usd: 1 }) });
    await h.type('first task');
    h.press('\r');
    await expect.poll(() => server.byKind('review').length, { timeout: 120_000 }).toBe(2);
    await h.waitForOutput(/\]0;ccc: ⚠ review 2 complete[^\x07]*task \$0\.\d\d of \$1\.00/, 60_000);
    const firstTaskAgentTurns = server.byKind('agent').length;
    await h.type('second task');
    h.press('\r');
    await expect.poll(() => readLog(world), { timeout: 180_000 }).toMatch(/the task's cost cap of \$1 was reached/);
    const secondTask = server.byKind('review').slice(2);
    // Counted from the task's start, the cap binds after the second task's own turns reach it, not at its first review.
    expect(secondTask.length).toBeGreaterThanOrEqual(2);
    expect(server.byKind('agent').length - firstTaskAgentTurns).toBeGreaterThanOrEqual(2);
    await expect.poll(() => server.byKind('agent').filter((r) => r.lastUserText.includes(WIND_DOWN)).length, { timeout: 60_000 }).toBe(1);
    expect(readLog(world)).toMatch(/the task's cost cap of \$1 was reached \(\$1\.\d+ spent on this task/);
  }, 360_000);
});
