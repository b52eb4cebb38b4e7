/**
 * DeniedTurns, the rule both modes follow for refused tool calls: turns in a row with denials end
 * supervision at DENIED_TURNS_LIMIT, a turn without any starts the count afresh, and so does a new
 * task the user typed (its first review's iteration is no higher than the last one recorded).
 */
import { describe, expect, it } from 'vitest';
import { DENIED_TURNS_LIMIT, DeniedTurns } from '../../src/loop/permission-denials.js';
import type { StopDecision } from '../../src/loop/review-stop.js';

const block = (iteration: number): StopDecision => ({
  action: 'block',
  feedback: 'not yet',
  iteration,
  verdict: { completed: false, feedback: 'not yet' },
  checker: 'reviewer',
});
const complete = (iteration: number): StopDecision => ({
  action: 'allow',
  reason: 'completed',
  message: 'done',
  iteration,
  verdict: { completed: true, feedback: 'done' },
  checker: 'reviewer',
});

describe('DeniedTurns', () => {
  it(`denied in ${DENIED_TURNS_LIMIT} turns in a row of one task: the run stops for the grant`, () => {
    const turns = new DeniedTurns();
    turns.record(['Bash'], undefined, 1);
    expect(turns.apply(block(1)).action).toBe('block');
    turns.record(['Bash'], undefined, 2);
    expect(turns.apply(block(2))).toMatchObject({ action: 'allow', reason: 'permission-denied' });
  });

  it('a turn without denials starts the count afresh', () => {
    const turns = new DeniedTurns();
    turns.record(['Bash'], undefined, 1);
    turns.record([], undefined, 2);
    turns.record(['Bash'], undefined, 3);
    expect(turns.apply(block(3)).action).toBe('block');
  });

  it("a new task typed after a task that ended with denials counts afresh: its first refused turn is not the last task's second", () => {
    const turns = new DeniedTurns();
    turns.record(['Bash'], undefined, 1);
    expect(turns.apply(complete(1)).action).toBe('allow');
    turns.record(['Bash'], undefined, 1); // the new task's first review
    const decision = turns.apply(block(1));
    expect(decision.action).toBe('block');
    expect(decision.action === 'block' && decision.feedback).toContain("denied by the user's permission settings");
    turns.record(['Bash'], undefined, 2);
    expect(turns.apply(block(2))).toMatchObject({ action: 'allow', reason: 'permission-denied' });
  });

  it('headless, without iterations: each turn with denials counts', () => {
    const turns = new DeniedTurns();
    turns.record(['Write']);
    turns.record(['Write']);
    expect(turns.apply(block(2))).toMatchObject({ action: 'allow', reason: 'permission-denied' });
  });
});
