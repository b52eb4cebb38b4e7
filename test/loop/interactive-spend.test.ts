/**
 * In an interactive session the cost cap counts the agent's own turns (as claude's status line
 * reports them), not only the reviews: an agent whose turns alone are over the cap is wound down
 * and stopped, and the user's own status line keeps showing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLog } from '../support/ccc-run.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { supervisedPtyFixture } from '../support/supervised-pty.js';

/** Each agent answer is a million input tokens (dollars at any price); each review is a few tokens. */
function scenario(r: RecordedRequest): Reply {
  if (r.kind === 'review') return { verdict: { completed: false, feedback: 'FEEDBACK not done yet' }, usage: { input_tokens: 10, output_tokens: 5 } };
  return { text: `agent answer ${r.index}`, usage: { input_tokens: 1_000_000, output_tokens: 0 } };
}

describe('interactive spend', () => {
  const fixture = supervisedPtyFixture();

  it("an agent whose turns alone exceed the cap gets the wind-down turn and is stopped; the user's status line still shows", async () => {
    const { server, world, h } = await fixture.launch(scenario, {
      prepare(w) {
        fs.writeFileSync(path.join(w.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { max_cost_usd: 0.5, max_iterations: 10 } }));
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
    const agent = server.byKind('agent').filter((r) => r.lastUserText.includes('The supervised run has reached a limit (the cost cap'));
    expect(agent.length).toBeGreaterThanOrEqual(1);
    expect(server.byKind('review')).toHaveLength(1);
    await h.waitForOutput(/\]0;ccc:[^\x07]*cost cap/, 10_000);
    expect(readLog(world)).toMatch(/cost cap of \$0\.5 was reached/);
  }, 240_000);
});
