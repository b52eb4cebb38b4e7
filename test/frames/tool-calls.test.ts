/**
 * The agent's tool calls told in a few words: the field that says what a call is about, its first
 * line, clipped and inert whatever the model put in the call.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_INPUT_CHARS, TOOL_NAME_CHARS, toolCallsOf } from '../../src/frames/tool-calls.js';

const assistant = (...content: unknown[]) => ({ type: 'assistant', message: { role: 'assistant', content } });
const toolUse = (name: string, input: unknown) => ({ type: 'tool_use', id: 'toolu_1', name, input });

describe('toolCallsOf', () => {
  it('names each call with the field that says what it is about', () => {
    const frame = assistant(
      { type: 'text', text: 'Let me look.' },
      toolUse('Read', { file_path: '/p/src/a.ts', limit: 20 }),
      toolUse('Bash', { command: '\n  npm test -- --run\necho done', description: 'run the tests' }),
      toolUse('Grep', { pattern: 'TODO', path: 'src' }),
      toolUse('WebFetch', { url: 'https://example.com/x', prompt: 'summarise' }),
      toolUse('TodoWrite', { todos: [{ content: 'x' }] }),
    );
    expect(toolCallsOf(frame)).toEqual([
      { name: 'Read', input: '/p/src/a.ts' },
      { name: 'Bash', input: 'npm test -- --run' },
      { name: 'Grep', input: 'TODO' },
      { name: 'WebFetch', input: 'https://example.com/x' },
      { name: 'TodoWrite', input: '' },
    ]);
  });

  it('reads assistant frames only', () => {
    expect(toolCallsOf({ type: 'user', message: { content: [toolUse('Read', { file_path: 'x' })] } })).toEqual([]);
    expect(toolCallsOf({ type: 'assistant' })).toEqual([]);
    expect(toolCallsOf({ type: 'assistant', message: { content: 'text' } })).toEqual([]);
  });

  it('makes escape sequences and markup inert text and clips long inputs', () => {
    const [call] = toolCallsOf(assistant(toolUse('Bash\x1b]0;t\x07', { command: `echo \x1b[31m<img src=x onerror=alert(1)>${'y'.repeat(300)}` })));
    expect(call!.name).toBe('Bash ]0;t');
    expect(call!.input.startsWith('echo  [31m<img src=x onerror=alert(1)>y')).toBe(true);
    expect(call!.input).toHaveLength(TOOL_INPUT_CHARS);
    expect(call!.input.endsWith('…')).toBe(true);
  });

  it('never throws on any frame, and says every call in at most a line of bounded, control-free text', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.string(),
        fc.dictionary(fc.constantFrom('command', 'file_path', 'pattern', 'other'), fc.anything()),
        (content, name, input) => {
          const calls = toolCallsOf(assistant(content, toolUse(name, input)));
          for (const call of calls) {
            expect(call.name.length).toBeLessThanOrEqual(TOOL_NAME_CHARS);
            expect(call.input.length).toBeLessThanOrEqual(TOOL_INPUT_CHARS);
            expect(`${call.name}${call.input}`).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
          }
          expect(calls.length).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });
});
