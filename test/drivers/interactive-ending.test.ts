/**
 * The words of an interactive run's ending (src/drivers/interactive-ending.ts): unless the last stop
 * was a confirmed completion they say the work was not confirmed complete, whatever ended the
 * agent and whatever its exit code. The real runs: test/loop/run-endings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { interactiveEnding } from '../../src/drivers/interactive-ending.js';
import type { StopDecision } from '../../src/loop/review-stop.js';
import { decisionText } from '../../src/loop/run-ending.js';

const quit = { exit: { exitCode: 0 }, exitCode: 0 };
const verdict = { completed: false, feedback: 'add the tests' };

describe('interactiveEnding', () => {
  it('after a confirmed completion says the last stop and nothing unconfirmed', () => {
    const completed: StopDecision = { action: 'allow', reason: 'completed', message: 'the checker confirmed completion', iteration: 2 };
    const ending = interactiveEnding({ ...quit, lastStop: decisionText(completed) });
    expect(ending.how).toBe('the agent exited with code 0 (the user quit); last stop: completed: the checker confirmed completion');
    expect(ending.unconfirmed).toBeUndefined();
    expect(ending.exitCode).toBe(0);
  });

  const unconfirmed: Array<[string, string | undefined, string]> = [
    [
      'a "not complete"',
      decisionText({ action: 'block', feedback: 'add the tests', iteration: 1, verdict, checker: 'claude' }),
      'last stop: not complete (review 1): the agent was sent back',
    ],
    ['a cancelled review', decisionText({ action: 'allow', reason: 'cancelled', message: 'review cancelled' }), 'last stop: cancelled: review cancelled'],
    [
      'a limit',
      decisionText({ action: 'allow', reason: 'limit', message: 'the iteration limit (1) was reached' }),
      'last stop: limit: the iteration limit (1) was reached',
    ],
    ['a stop not reviewed', 'not reviewed: the project is gone', 'last stop: not reviewed: the project is gone'],
    ['no stop', undefined, 'no stop was reviewed'],
  ];
  for (const [name, lastStop, words] of unconfirmed) {
    it(`after ${name} says the work was not confirmed complete, with exit code 0 kept`, () => {
      const ending = interactiveEnding({ ...quit, lastStop });
      expect(ending.unconfirmed).toBe(`the work was not confirmed complete (${words})`);
      expect(ending.how).toBe(`the agent exited with code 0 (the user quit); the work was not confirmed complete (${words})`);
      expect(ending.exitCode).toBe(0);
    });
  }
});
