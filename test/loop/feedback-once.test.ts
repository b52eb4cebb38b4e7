/**
 * What the agent's next request holds after a "not complete" review, counted by a marker unique to
 * the feedback, in both modes with the real claude. Headless, ccc's next `-p` turn is the feedback,
 * once. Interactive, ccc answers claude's Stop hook with the feedback once and claude itself sends
 * it twice (docs/design/claude-facts.md, "How a Stop hook's block reaches the model"): once as the
 * "Stop hook feedback" user message and once more in a system message; ccc adds no third copy, and
 * its own line for the user (`systemMessage`) never reaches the model.
 */
import { describe, expect } from 'vitest';
import { blockReason } from '../../src/stop/block-reason.js';
import { sentHookFeedback } from '../support/claude-versions.js';
import { runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn, type RecordedRequest, type Scenario } from '../support/model-server.js';

const MARK = 'FEEDBACK-ONCE-5927';
const FEEDBACK = `${MARK} the tests for parse() are missing`;

const review: Scenario = (r) =>
  r.kind === 'review'
    ? { verdict: r.index === 0 ? { completed: false, feedback: FEEDBACK } : { completed: true, feedback: 'done' } }
    : { text: `agent answer ${r.index}` };

/** How many times the marker is in the request as sent (its system prompt, tools and messages). */
const occurrences = (request: RecordedRequest) => JSON.stringify(request.body).split(MARK).length - 1;

/** The texts of the messages `next` added to the conversation `previous` sent, by role. */
function added(previous: RecordedRequest, next: RecordedRequest): Array<{ role: string; text: string }> {
  return next.body.messages.slice(previous.body.messages.length).map((m) => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join(''),
  }));
}

describe('the feedback of a "not complete" review in the agent\'s next request', () => {
  describe('headless', () => {
    it('is there once: the next turn is the feedback and nothing else carries it', async ({ rig }) => {
      const { server, world } = await rig.start(review);
      const run = await runCcc(world, ['--supervisor', '-p', 'write parse() with tests']);
      expect(run.code, run.stderr).toBe(0);
      const [first, next] = server.byKind('agent');
      expect(occurrences(next!)).toBe(1);
      expect(added(first!, next!).filter((m) => m.text.includes(MARK))).toEqual([{ role: 'user', text: expect.stringContaining(FEEDBACK) }]);
    });
  });

  describe('interactive', () => {
    it("is there twice, both claude's: the Stop hook feedback and claude's system message repeating the hook's block; ccc adds none", async ({ rig }) => {
      const { server, h } = await rig.launch(review);
      await h.type('write parse() with tests');
      h.press('\r');
      await h.waitForScreen(/review 2 \(claude\): complete/, 90_000);
      const [first, next] = server.byKind('agent').filter((r) => !isToolResultTurn(r));
      expect(occurrences(next!)).toBe(2);
      const carrying = added(first!, next!).filter((m) => m.text.includes(MARK));
      expect(carrying[1]?.text.endsWith(`: ${blockReason(FEEDBACK)}`)).toBe(true);
      expect(carrying).toEqual([
        // ccc's request first, the reviewer's findings after it (src/stop/block-reason.ts), as claude sends any block's reason.
        { role: 'user', text: sentHookFeedback(blockReason(FEEDBACK)) },
        { role: 'system', text: expect.stringMatching(/^Stop hook blocking error from command: ".*supervisor-hook --proxy": /) },
      ]);
      // ccc's line for the user is shown in the TUI, never sent.
      expect(h.screen()).toMatch(/review 1 \(claude\): not complete, feedback sent to the agent/);
      for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('feedback sent to the agent');
    }, 150_000);
  });
});
