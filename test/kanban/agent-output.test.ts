/** The output-format check of docs/design/kanban.md: structured output first, the result text as fallback; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_STATUSES, checkAgentOutput, parseAgentOutput } from '../../src/kanban/agent-output.js';

describe('checkAgentOutput', () => {
  it('accepts {status, message} with any of the four statuses, extra keys allowed', () => {
    for (const status of AGENT_STATUSES)
      expect(checkAgentOutput({ status, message: 'm', extra: 1 }, 'task')).toEqual({ ok: true, output: { status, message: 'm' } });
  });

  it.each([
    [[], 'task', 'the answer is a list, not an object'],
    [{ message: 'm' }, 'task', '"status" is missing; it must be one of ok, blocked, error, escalate'],
    [{ status: 'OK', message: 'm' }, 'task', '"status" is "OK"'],
    [{ status: 'ok' }, 'task', '"message" is missing'],
    [{ status: 'ok', message: 3 }, 'task', '"message" is not a string'],
    [{ status: 'ok', message: 'm', tasks: 'a.md' }, 'task', '"tasks" must be a list of task file paths'],
    [{ status: 'ok', message: 'm', next_task: 4 }, 'task', '"next_task" must be a task file path or null'],
    [{ status: 'ok', message: 'm', next_task: null }, 'reconcile', '"tasks" is missing'],
    [{ status: 'ok', message: 'm', tasks: [] }, 'reconcile', '"next_task" is missing'],
  ] as const)('rejects %j (%s): %s', (value, contract, issue) => {
    const checked = checkAgentOutput(value, contract);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.issue).toContain(issue);
  });

  it('holds the Manager to tasks and next_task only when it answers ok', () => {
    expect(checkAgentOutput({ status: 'blocked', message: 'need a human' }, 'reconcile').ok).toBe(true);
    expect(checkAgentOutput({ status: 'ok', message: 'm', tasks: ['a.md'], next_task: null }, 'reconcile')).toEqual({
      ok: true,
      output: { status: 'ok', message: 'm', tasks: ['a.md'], next_task: null },
    });
  });
});

describe('parseAgentOutput', () => {
  const valid = fc.record({ status: fc.constantFrom(...AGENT_STATUSES), message: fc.string() });

  it('prefers valid structured output, else finds the answer in the text', () => {
    expect(parseAgentOutput({ structuredOutput: { status: 'ok', message: 'a' }, resultText: '{"status":"error","message":"b"}' }, 'task')).toMatchObject({
      output: { message: 'a' },
    });
    expect(
      parseAgentOutput({ structuredOutput: { status: 'nope' }, resultText: 'Done.\n```json\n{"status":"ok","message":"b"}\n```\nBye' }, 'task'),
    ).toMatchObject({ output: { message: 'b' } });
    expect(parseAgentOutput({ structuredOutput: { status: 'nope' }, resultText: 'no json' }, 'task')).toMatchObject({
      ok: false,
      issue: expect.stringContaining('"status" is "nope"'),
    });
    expect(parseAgentOutput({ resultText: 'I wrote {"status": "done"} somewhere' }, 'task')).toMatchObject({
      ok: false,
      issue: expect.stringContaining('"status" is "done"'),
    });
    expect(parseAgentOutput({ resultText: '   ' }, 'task')).toEqual({ ok: false, issue: 'the answer is empty' });
    expect(parseAgentOutput({ resultText: 'All done!' }, 'task')).toEqual({ ok: false, issue: 'the answer holds no JSON object' });
  });

  it('finds a valid answer wrapped in any prose and fences', () => {
    fc.assert(
      fc.property(valid, fc.string(), fc.string(), fc.boolean(), (output, before, after, fence) => {
        const json = JSON.stringify(output, null, fence ? 2 : 0);
        const text = `${before.replace(/[{}]/g, '')}\n${fence ? `\`\`\`json\n${json}\n\`\`\`` : json}\n${after.replace(/[{}]/g, '')}`;
        expect(parseAgentOutput({ resultText: text }, 'task')).toEqual({ ok: true, output });
      }),
    );
  });

  it('never throws, whatever the answer', () => {
    fc.assert(
      fc.property(fc.anything(), fc.oneof(fc.string(), fc.json()), fc.constantFrom('task' as const, 'reconcile' as const), (structured, text, contract) => {
        const result = parseAgentOutput({ structuredOutput: structured, resultText: text }, contract);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
