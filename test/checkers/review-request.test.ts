import { describe, expect, it } from 'vitest';
import { buildReviewMessage, reviewerArgs } from '../../src/checkers/review-request.js';
import type { CheckContext } from '../../src/checkers/types.js';

describe('the review request', () => {
  it("carries the supervisor prompt, the user's prompts and the agent's last message", () => {
    const text = buildReviewMessage('# Be strict\nCheck tests.', {
      userPrompts: ['add a login page', 'also a logout'],
      lastAssistantMessage: 'All done!',
      iteration: 2,
      maxIterations: 20,
      completionMarker: '[TASK_COMPLETED]',
    } as CheckContext);
    expect(text).toContain('# Be strict\nCheck tests.');
    expect(text).toContain('1. add a login page\n2. also a logout');
    expect(text).toContain('All done!');
    expect(text).toContain('review 2 of at most 20');
    expect(text).toContain('[TASK_COMPLETED]');
  });

  it('gives the reviewer only the permission, model and settings options of the user', () => {
    expect(reviewerArgs(['--allowedTools', 'Bash', 'fix the bug', '-p', '--resume', 'x', '--model=opus', '--dangerously-skip-permissions', '--', '--permission-mode', 'plan'])).toEqual([
      '--allowedTools', 'Bash', '--model=opus', '--dangerously-skip-permissions',
    ]);
  });
});
