import { describe, expect, it } from 'vitest';
import { buildFreshReviewMessage, buildIndependentReviewMessage, buildReviewMessage, VERDICT_REMINDER } from '../../src/checkers/review-request.js';
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

  it('says the evidence rules, the whole suite when require_evidence asks for it, and the tests the agent weakened with their diff', () => {
    const policy = reviewerPolicy({ root: process.cwd(), tests: [], ruleCommands: [], allow: [] });
    const plain = buildReviewMessage('rules', ctx, policy);
    expect(plain).toContain('ccc does not accept "complete" over a failing test run that no later run passed.');
    expect(plain).not.toContain('whole test suite');
    expect(plain).not.toContain('Tests the agent changed');
    const changedTests = {
      weakened: [{ file: 'tests/test_calc.py', findings: ['an assertion made trivial: `assert True`'] }],
      diff: 'diff --git a/tests/test_calc.py b/tests/test_calc.py\n-    assert add(1, 1) == 2\n+    assert True\n',
      since: "the task's start (2026-01-01T00:00:00.000Z)",
    };
    const rules = { wholeSuite: { commands: ['python3 -m pytest'] } };
    for (const text of [
      buildReviewMessage('rules', { ...ctx, changedTests }, policy, rules),
      buildFreshReviewMessage('rules', { ...ctx, changedTests }, policy, '(the change)', rules),
      // The other vendor's reviewer (codex) is told the same rules and shown the same tests.
      buildIndependentReviewMessage('rules', { ...ctx, changedTests }, '(the change)', 'Its sandbox is read-only.', rules),
    ]) {
      expect(text).toContain('ccc does not accept "complete" over a failing test run that no later run passed.');
      expect(text).toContain(
        'ccc accepts "complete" only when you ran the project\'s whole test suite (`python3 -m pytest`), without a filter, and it passed.',
      );
      expect(text).toContain("## Tests the agent changed since the task began\nccc compared the project with the task's start (2026-01-01T00:00:00.000Z)");
      expect(text).toContain('- `tests/test_calc.py`: an assertion made trivial: `assert True`');
      expect(text).toContain('Judge each one');
      expect(text).toContain('```diff\ndiff --git a/tests/test_calc.py b/tests/test_calc.py\n-    assert add(1, 1) == 2\n+    assert True\n```');
    }
  });
});
