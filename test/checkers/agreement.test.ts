/** How the reviewers of a round decide together (`supervisor.agreement`), on fake checkers at the pipeline's interface. */
import { describe, expect, it } from 'vitest';
import { runPipeline, type PipelineEntry } from '../../src/checkers/pipeline.js';
import type { Verdict } from '../../src/checkers/types.js';
import { checkContext } from './check-context.js';

function entry(name: string, verdict: Verdict, asked: string[], reviewer = true): PipelineEntry {
  return {
    checker: {
      name,
      check: () => {
        asked.push(name);
        return verdict;
      },
    },
    timeoutSeconds: 5,
    ...(reviewer ? { reviewer: true } : {}),
  };
}

const yes = (feedback = 'done'): Verdict => ({ completed: true, feedback });
const no = (feedback: string): Verdict => ({ completed: false, feedback });

describe('agreement', () => {
  it('all (the default): a later reviewer that disagrees makes the round not complete, and its feedback names both', async () => {
    const asked: string[] = [];
    const { verdict, checker } = await runPipeline([entry('claude', yes('CL-1'), asked), entry('codex', no('CX-2'), asked)], checkContext('/tmp'));
    expect(asked).toEqual(['claude', 'codex']);
    expect(checker).toBe('codex');
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback.split('\n')).toEqual([
      'The reviewers disagree: claude found the work complete, codex did not (the work is complete only when every reviewer finds it so).',
      '- claude: complete: CL-1',
      '- codex: not complete: CX-2',
    ]);
    expect(verdict.opinions).toEqual([
      { checker: 'claude', completed: true, feedback: 'CL-1' },
      { checker: 'codex', completed: false, feedback: 'CX-2' },
    ]);
  });

  it('all: the first that finds the work incomplete ends the round; the next reviewer is not asked, no disagreement is made up', async () => {
    const asked: string[] = [];
    const { verdict } = await runPipeline([entry('claude', no('CL-1'), asked), entry('codex', yes(), asked)], checkContext('/tmp'));
    expect(asked).toEqual(['claude']);
    expect(verdict).toEqual({ completed: false, feedback: 'CL-1' });
  });

  it('all: reviewers that agree leave the verdict as it was', async () => {
    const { verdict } = await runPipeline([entry('claude', yes('a'), []), entry('codex', yes('b'), [])], checkContext('/tmp'));
    expect(verdict).toEqual({ completed: true, feedback: 'b' });
  });

  it('one: the next reviewer is asked after a no; its yes completes the round, with both verdicts shown', async () => {
    const asked: string[] = [];
    const { verdict } = await runPipeline([entry('claude', no('CL-1'), asked), entry('codex', yes('CX-2'), asked)], checkContext('/tmp'), { agreement: 'one' });
    expect(asked).toEqual(['claude', 'codex']);
    expect(verdict.completed).toBe(true);
    expect(verdict.feedback).toMatch(
      /^The reviewers disagree: codex found the work complete, claude did not \(one reviewer finding the work complete is enough\)\./,
    );
  });

  it('one: a first yes is enough, the other reviewer is not asked; both no is not complete, naming each', async () => {
    const asked: string[] = [];
    expect(
      (await runPipeline([entry('claude', yes(), asked), entry('codex', no('x'), asked)], checkContext('/tmp'), { agreement: 'one' })).verdict.completed,
    ).toBe(true);
    expect(asked).toEqual(['claude']);
    const { verdict } = await runPipeline([entry('claude', no('CL-1'), []), entry('codex', no('CX-2'), [])], checkContext('/tmp'), { agreement: 'one' });
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toMatch(/^No reviewer found the work complete: neither claude nor codex/);
    expect(verdict.feedback).toContain('- claude: not complete: CL-1');
  });

  it('one: a checker that is not a reviewer (a rule) still gates the round on its own', async () => {
    const asked: string[] = [];
    const { verdict, checker } = await runPipeline([entry('rule', no('tests fail'), asked, false), entry('codex', yes(), asked)], checkContext('/tmp'), {
      agreement: 'one',
    });
    expect(asked).toEqual(['rule']);
    expect(checker).toBe('rule');
    expect(verdict).toEqual({ completed: false, feedback: 'tests fail' });
  });
});
