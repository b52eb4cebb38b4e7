/**
 * The reviewer's answer → Verdict, in the order docs/design/reviewer.md gives: structured output, a verdict
 * object in the result text, the completion marker on its own line, else unparseable.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseVerdict, verdictFromResultFrame } from '../../src/checkers/verdict-parser.js';

const marker = '[TASK_COMPLETED]';
const parse = (resultText?: string, structuredOutput?: unknown) => parseVerdict({ resultText, structuredOutput, completionMarker: marker });

describe('parseVerdict', () => {
  it('takes valid structured output first, whatever the text says', () => {
    expect(parse('[TASK_COMPLETED]', { completed: false, feedback: 'add tests' })).toEqual({ completed: false, feedback: 'add tests' });
  });

  it('accepts allow_stop for completed and a missing feedback as empty', () => {
    expect(parse(undefined, { allow_stop: true })).toEqual({ completed: true, feedback: '' });
    expect(parse(undefined, { completed: false, feedback: null })).toEqual({ completed: false, feedback: '' });
  });

  it('ignores invalid structured output and falls back to the text', () => {
    expect(parse('{"completed": true, "feedback": "ok"}', { completed: 'yes' })).toEqual({ completed: true, feedback: 'ok' });
    expect(parse('{"completed": true, "feedback": "ok"}', { completed: true, feedback: 42 })).toEqual({ completed: true, feedback: 'ok' });
    expect(parse(undefined, ['completed'])).toBeUndefined();
  });

  it('reads structured output that arrives as a JSON string', () => {
    expect(parse(undefined, '{"completed":false,"feedback":"x"}')).toEqual({ completed: false, feedback: 'x' });
  });

  it('finds a verdict in json fences with prose around it', () => {
    const text = 'I reviewed the diff.\n\n```json\n{\n  "completed": false,\n  "feedback": "The tests for parse() are missing."\n}\n```\n\nLet me know.';
    expect(parse(text)).toEqual({ completed: false, feedback: 'The tests for parse() are missing.' });
  });

  it('takes the last verdict object when there are several, skipping non-verdict objects after it', () => {
    const text =
      'First thought: {"completed": true, "feedback": "looks fine"}\nOn reflection: {"completed": false, "feedback": "lint fails"}\nConfig seen: {"strict": true}';
    expect(parse(text)).toEqual({ completed: false, feedback: 'lint fails' });
  });

  it('handles braces and quotes inside the feedback string', () => {
    expect(parse('{"completed":false,"feedback":"use {a} and \\"b\\" and }"}')).toEqual({ completed: false, feedback: 'use {a} and "b" and }' });
  });

  it('reads a verdict object nested in another object only when it is itself the object', () => {
    expect(parse('{"verdict": {"completed": true, "feedback": "ok"}}')).toEqual({ completed: true, feedback: 'ok' });
  });

  it('takes the completion marker on a line of its own as completed, the rest as feedback', () => {
    expect(parse('All checks pass.\n[TASK_COMPLETED]\n')).toEqual({ completed: true, feedback: 'All checks pass.' });
    expect(parse('**[TASK_COMPLETED]**')).toEqual({ completed: true, feedback: '' });
    expect(parse('  `[TASK_COMPLETED]`  \r\nDone.')).toEqual({ completed: true, feedback: 'Done.' });
  });

  it('does not take a marker inside a sentence as completion', () => {
    expect(parse('Do not print [TASK_COMPLETED] until the tests pass.')).toBeUndefined();
  });

  it('uses the configured marker and no marker rule when it is empty', () => {
    expect(parseVerdict({ resultText: 'ok\nDONE!', completionMarker: 'DONE!' })).toEqual({ completed: true, feedback: 'ok' });
    expect(parseVerdict({ resultText: '\n\n', completionMarker: '' })).toBeUndefined();
  });

  it('is undefined for prose without a verdict, for empty and for missing text', () => {
    expect(parse('The work looks incomplete: add tests.')).toBeUndefined();
    expect(parse('')).toBeUndefined();
    expect(parse(undefined)).toBeUndefined();
    expect(parse('{"completed": "true", "feedback": "x"}')).toBeUndefined();
  });

  it('stays fast on garbage full of braces', () => {
    const garbage = '{'.repeat(200_000) + '"'.repeat(1000) + '}'.repeat(10);
    expect(parse(garbage)).toBeUndefined();
  });

  it('never throws, whatever the input (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: fc.constantFrom('{', '}', '"', '\\', ':', ',', 'a', '\n', ' ', 't', '[', ']') })),
        fc.anything(),
        fc.string(),
        (text, structured, m) => {
          parseVerdict({ resultText: text ?? undefined, structuredOutput: structured, completionMarker: m });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('round-trips a verdict embedded in random prose, fenced or bare (fuzz)', () => {
    const prose = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '.', '{', '}', '"', ':', '`', 'x', 'é') });
    fc.assert(
      fc.property(fc.boolean(), fc.string(), prose, prose, fc.boolean(), fc.boolean(), (completed, feedback, before, after, fenced, pretty) => {
        const json = JSON.stringify({ completed, feedback }, null, pretty ? 2 : undefined);
        const body = fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
        // The prose alphabet cannot spell another verdict, so the embedded one is the only answer.
        const text = `${before}\n${body}\n${after}`;
        expect(parse(text)).toEqual({ completed, feedback });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('verdictFromResultFrame', () => {
  it('reads structured_output, then the result text', () => {
    expect(verdictFromResultFrame({ type: 'result', structured_output: { completed: true, feedback: 'ok' }, result: '' }, marker)).toEqual({
      completed: true,
      feedback: 'ok',
    });
    expect(verdictFromResultFrame({ type: 'result', result: 'Fine.\n[TASK_COMPLETED]' }, marker)).toEqual({ completed: true, feedback: 'Fine.' });
    expect(verdictFromResultFrame({ type: 'result', subtype: 'error_during_execution' }, marker)).toBeUndefined();
  });
});
