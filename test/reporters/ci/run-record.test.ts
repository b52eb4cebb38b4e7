/** A run's record from its event lines: outcome, reviews, costs, times; unknown or odd lines change nothing. */
import { describe, expect, it } from 'vitest';
import { runRecord } from '../../../src/reporters/ci/run-record.js';
import { runTable, runTableMarkdown } from '../../../src/reporters/ci/run-table.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const usage = (cost: number, read: number, input: number) => ({
  input_tokens: input,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: 0,
  output_tokens: 5,
  cost_usd: cost,
});
const result = (cost: number, session = 's-1') => ({
  kind: 'frame',
  frame: { type: 'result', session_id: session, total_cost_usd: cost * 10, model_usage_since_last_result: { m: { costUSD: cost } } },
});

describe('runRecord', () => {
  it('a run completed on its second review', () => {
    const r = runRecord([
      { kind: 'start', task: 'fix it\nsecond line', at: at(0) },
      { kind: 'phase', phase: 'agent', at: at(0) },
      result(0.01),
      { kind: 'iteration', n: 1, max: 20, at: at(10) },
      { kind: 'checker', checker: 'claude', state: 'start', at: at(10) },
      {
        kind: 'verdict',
        checker: 'claude',
        completed: false,
        feedback: 'add tests',
        iteration: 1,
        usage: usage(0.002, 90, 10),
        evidence: [{ anything: true }],
        at: at(14),
      },
      result(0.02),
      { kind: 'iteration', n: 2, max: 20, at: at(20) },
      { kind: 'some-future-event', x: 1, at: at(21) },
      { kind: 'verdict', checker: 'claude', completed: true, feedback: 'done', iteration: 2, usage: usage(0.003, 80, 20), at: at(23) },
      { kind: 'end', exit_code: 0, reviews: 2, review_usage: usage(0.005, 170, 30), at: at(24) },
    ]);
    expect(r).toMatchObject({
      task: 'fix it\nsecond line',
      outcome: 'completed',
      completed: true,
      exitCode: 0,
      agentCostUsd: 0.03,
      sessionId: 's-1',
      durationMs: 24_000,
    });
    expect(r.reviews.map((v) => [v.n, v.checker, v.result, v.feedback, v.durationMs, v.usage?.cost_usd])).toEqual([
      [1, 'claude', 'not complete', 'add tests', 4000, 0.002],
      [2, 'claude', 'complete', 'done', 3000, 0.003],
    ]);
    expect(r.reviewUsage.cost_usd).toBe(0.005);
  });

  it('the iteration limit: stopped without review', () => {
    const r = runRecord([
      { kind: 'start', task: 't', at: at(0) },
      { kind: 'iteration', n: 1, max: 1, at: at(1) },
      { kind: 'verdict', checker: 'claude', completed: false, feedback: 'no', iteration: 1, at: at(2) },
      { kind: 'stopped', reason: 'limit', message: 'the iteration limit (1) was reached', at: at(3) },
      { kind: 'end', exit_code: 3, reviews: 1, at: at(3) },
    ]);
    expect(r).toMatchObject({ outcome: 'limit', completed: false, exitCode: 3, message: 'the iteration limit (1) was reached' });
    expect(r.reviews).toHaveLength(1);
  });

  it('a checker failure fails its review; an agent failure is the run error', () => {
    const failed = runRecord([
      { kind: 'iteration', n: 1, max: 20, at: at(0) },
      { kind: 'checker', checker: 'claude', state: 'error', duration_ms: 5, at: at(1) },
      { kind: 'error', message: 'the claude reviewer did not answer within 3s', at: at(3) },
      { kind: 'stopped', reason: 'checker-failed', message: 'the claude reviewer did not answer within 3s', at: at(3) },
      { kind: 'end', exit_code: 4, reviews: 0, at: at(3) },
    ]);
    expect(failed).toMatchObject({ outcome: 'checker-failed', completed: false, exitCode: 4 });
    expect(failed.reviews).toEqual([{ n: 1, checker: 'claude', result: 'failed', feedback: 'the claude reviewer did not answer within 3s', durationMs: 3000 }]);
    // A log cut right after the checker's error: the review failed, the run has no end.
    const cut = runRecord([
      { kind: 'iteration', n: 1, max: 20, at: at(0) },
      { kind: 'error', message: 'reviewer crashed', at: at(2) },
    ]);
    expect(cut).toMatchObject({
      outcome: 'unfinished',
      completed: false,
      reviews: [{ n: 1, result: 'failed', feedback: 'reviewer crashed', durationMs: 2000 }],
    });
    expect(cut.message).toBeUndefined();
    // What the failed review spent before it failed is its cost, and the run's review cost without an end to say it.
    const spent = runRecord([
      { kind: 'iteration', n: 1, max: 20, at: at(0) },
      { kind: 'error', message: 'no verdict', usage: usage(0.004, 90, 10), at: at(2) },
    ]);
    expect(spent.reviews[0]!.usage).toMatchObject({ cost_usd: 0.004 });
    expect(spent.reviewUsage.cost_usd).toBe(0.004);
    const agent = runRecord([
      { kind: 'error', message: 'the agent exited with code 1', at: at(0) },
      { kind: 'end', exit_code: 1, at: at(1) },
    ]);
    expect(agent).toMatchObject({ outcome: 'error', completed: false, exitCode: 1, message: 'the agent exited with code 1', reviews: [] });
  });

  it('a log without its end is unfinished, and junk fields are ignored, not trusted', () => {
    const r = runRecord([
      { kind: 'start', task: 42 },
      { kind: 'iteration', n: 'one', at: 'yesterday' },
      { kind: 'verdict', completed: 'yes', feedback: null, usage: { cost_usd: -1, input_tokens: 'many' } },
      { kind: 'frame', frame: 'not a frame' },
      null,
      [],
    ]);
    expect(r.outcome).toBe('unfinished');
    expect(r.completed).toBe(false);
    expect(r.task).toBeUndefined();
    expect(r.reviews).toEqual([
      {
        n: 1,
        checker: '',
        result: 'not complete',
        feedback: '',
        verification: 'failed',
        usage: { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      },
    ]);
    expect(r.durationMs).toBeUndefined();
  });
});

describe('reviewers that disagree', () => {
  it("the record keeps who said what; ccc report's row (JSON and Markdown) says it; a junk entry is not half-trusted", () => {
    const log = (opinions: unknown) => [
      { kind: 'start', task: 'add', at: at(0) },
      { kind: 'iteration', n: 1, at: at(1) },
      { kind: 'verdict', checker: 'codex', completed: false, feedback: 'The reviewers disagree: …', opinions, at: at(2) },
      { kind: 'stopped', reason: 'limit', message: 'limit', at: at(3) },
      { kind: 'end', exit_code: 3, at: at(4) },
    ];
    const said = [
      { checker: 'claude', completed: true, feedback: 'x' },
      { checker: 'codex', completed: false, feedback: 'y' },
    ];
    const r = runRecord(log(said));
    expect(r.reviews[0]!.opinions).toEqual([
      { checker: 'claude', completed: true },
      { checker: 'codex', completed: false },
    ]);
    const table = runTable([{ file: 'a.jsonl', record: r }]);
    expect(table.runs[0]!.reviewers).toEqual(r.reviews[0]!.opinions);
    expect(runTableMarkdown(table)).toContain(' failed (claude: complete, codex: not complete) |');
    expect(runRecord(log([{ checker: 'claude', completed: 'yes' }, said[1]])).reviews[0]).not.toHaveProperty('opinions');
    expect(runTable([{ file: 'b.jsonl', record: runRecord(log(undefined)) }]).runs[0]!.reviewers).toBeNull();
  });
});

describe('runRecord caps', () => {
  it('keeps the caps the last verdict carried', () => {
    const r = runRecord([
      {
        kind: 'verdict',
        checker: 'claude',
        completed: false,
        feedback: 'no',
        iteration: 1,
        spent_usd: 0.4,
        cap_usd: 5,
        task_spent_usd: 0.4,
        task_cap_usd: 1,
        at: at(1),
      },
      { kind: 'end', exit_code: 3, at: at(2) },
    ]);
    expect(r).toMatchObject({ capUsd: 5, taskCapUsd: 1 });
    expect(runRecord([{ kind: 'verdict', checker: 'claude', completed: true, feedback: '', iteration: 1, at: at(1) }])).not.toHaveProperty('capUsd');
  });
});
