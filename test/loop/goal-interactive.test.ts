/**
 * A `/goal` typed in the TUI of a supervised session (docs/design/stop-path.md, "A /goal beside ccc"),
 * on the real claude: one message to the agent per stop, and ccc's reviewer judges the goal's
 * condition as part of the task.
 */
import { describe, expect } from 'vitest';
import { blockReason } from '../../src/stop/block-reason.js';
import { hookFeedbackIn, sentHookFeedback } from '../support/claude-versions.js';
import { goalAnswer, type RecordedRequest } from '../support/model-server.js';
import { it } from '../support/fixtures.js';

const CONDITION = 'the file done.txt exists';

/** The Stop hooks' messages to the agent in a request: its last user message holds those of the stop before it. */
function feedbackOf(request: RecordedRequest): string[] {
  const { content } = request.body.messages.filter((m) => m.role === 'user').at(-1)!;
  const texts = typeof content === 'string' ? [content] : content.map((b) => b.text ?? '');
  return texts.map((text) => text.trim()).filter((text) => hookFeedbackIn(text) !== undefined);
}

describe('/goal in a supervised interactive session', () => {
  it('sends the agent one message per stop: the goal while it is not met, then the review, which judges the goal', async ({ rig }) => {
    const { server, h } = await rig.launch((r) => {
      if (r.kind === 'goal')
        return goalAnswer(r.index === 0 ? { ok: false, reason: 'GOAL-MISSING no done.txt yet' } : { ok: true, reason: 'done.txt written' });
      if (r.kind === 'review')
        return { verdict: r.index === 0 ? { completed: false, feedback: 'REVIEW-FEEDBACK add the newline' } : { completed: true, feedback: 'verified' } };
      return { text: `agent answer ${r.index}` };
    });
    await h.type(`/goal ${CONDITION}`);
    await h.waitForScreen(/❯\s\/goal the file done\.txt exists/, 10_000);
    h.press('\r');
    await h.waitForScreen(/review 2 \(claude\): complete/, 90_000);

    const agent = server.byKind('agent');
    // Stop 1: the goal is not met; its reason is the one message, and ccc did not review.
    expect(feedbackOf(agent[1]!)).toEqual([sentHookFeedback(`[${CONDITION}]: GOAL-MISSING no done.txt yet`)]);
    expect(agent).toHaveLength(3);
    // Stop 2: the goal is met; ccc reviews, with the goal as part of the task, and its feedback is the one message.
    expect(feedbackOf(agent[2]!)).toEqual([sentHookFeedback(blockReason('REVIEW-FEEDBACK add the newline'))]);
    const reviews = server.byKind('review');
    expect(reviews).toHaveLength(2);
    expect(reviews[0]!.lastUserText).toContain(`1. /goal ${CONDITION}`);
    expect(reviews[0]!.lastUserText).toContain(`## The session goal (set with /goal)\n${CONDITION}`);
    expect(server.byKind('goal')).toHaveLength(2);
  }, 180_000);
});
