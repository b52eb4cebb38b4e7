import { describe, expect, it } from 'vitest';
import { buildReviewMessage, VERDICT_REMINDER } from '../../src/checkers/review-request.js';
import { reviewerPolicy } from '../../src/checkers/reviewer/reviewer-policy.js';
import type { CheckContext } from '../../src/checkers/types.js';
import { parseVerdict } from '../../src/checkers/verdict-parser.js';

const ctx = {
  userPrompts: ['add a login page', 'also a logout'],
  lastAssistantMessage: 'All done!',
  iteration: 2,
  maxIterations: 20,
  completionMarker: '[TASK_COMPLETED]',
} as CheckContext;

describe('the review request', () => {
  it("carries the supervisor prompt, the user's prompts, the agent's last message and what the reviewer may run", () => {
    const text = buildReviewMessage(
      '# Be strict\nCheck tests.',
      ctx,
      reviewerPolicy({
        root: process.cwd(),
        tests: [{ ecosystem: 'npm', command: 'npm test', marker: 'package.json', why: 'package.json has a test script', runner: 'node-test' }],
        ruleCommands: ['make lint'],
        allow: ['Bash(npm run e2e:*)'],
      }),
    );
    expect(text).toContain('# Be strict\nCheck tests.');
    expect(text).toContain('1. add a login page\n2. also a logout');
    expect(text).toContain('All done!');
    expect(text).toContain('review 2 of at most 20');
    expect(text).toContain('[TASK_COMPLETED]');
    expect(text).toContain('`npm test`');
    expect(text).toContain('`make lint`');
    expect(text).toContain('`npm run e2e …`');
    expect(text).toContain('git status');
  });

  it("carries the session's /goal, to be verified, only when the task has one", () => {
    const policy = reviewerPolicy({ root: process.cwd(), tests: [], ruleCommands: [], allow: [] });
    const text = buildReviewMessage('rules', { ...ctx, goal: 'all tests pass' }, policy);
    expect(text).toContain('## The session goal (set with /goal)\nall tests pass\nThe work is complete only when this condition holds');
    expect(buildReviewMessage('rules', ctx, policy)).not.toContain('/goal');
  });

  it('asks for the verdict as a JSON object at the end of the answer, never through a tool', () => {
    const text = buildReviewMessage('rules', ctx, reviewerPolicy({ root: process.cwd(), tests: [], ruleCommands: [], allow: [] }));
    expect(text).not.toContain('StructuredOutput');
    expect(text).toContain('{"completed": true|false, "feedback": "..."}');
    // What the message asks for is what the parser reads.
    expect(parseVerdict({ resultText: 'Checked.\n{"completed": false, "feedback": "npm test fails"}', completionMarker: '[TASK_COMPLETED]' })).toEqual({
      completed: false,
      feedback: 'npm test fails',
    });
    expect(VERDICT_REMINDER).toContain('{"completed": true|false, "feedback": "..."}');
  });
});
