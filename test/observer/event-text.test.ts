/** The terminal observer's one line per event for the timeline's newer kinds: inert, short, saying what happened. */
import { describe, expect, it } from 'vitest';
import { eventText } from '../../src/observer/event-text.js';

const at = '2026-11-27T04:00:00.000Z';

describe('eventText', () => {
  it("names the agent's tool calls and counts those left out", () => {
    const calls = [
      { name: 'Read', input: 'src/a.ts' },
      { name: 'TodoWrite', input: '' },
    ];
    expect(eventText({ kind: 'tools', calls, more: 3, at })).toBe('agent: Read src/a.ts · TodoWrite · +3 more');
  });

  it("says how a wait on the model's limit ended", () => {
    expect(eventText({ kind: 'wait-over', who: 'agent', outcome: 'resumed', waited_ms: 3000, at })).toBe(
      "the wait on the model's limit is over; resuming the agent's turn",
    );
    expect(eventText({ kind: 'wait-over', who: 'reviewer', outcome: 'gave-up', waited_ms: 300 * 60_000, at })).toBe(
      "gave up waiting on the model's limit after 300 min",
    );
  });

  it("gives the task under review's first line, inert and clipped", () => {
    const task = `fix \x1b]0;title\x07 the parser ${'x'.repeat(100)}\nsecond line`;
    const line = eventText({ kind: 'iteration', n: 1, max: 20, task, at });
    expect(line).toMatch(/^iteration 1\/20 · task: fix {2}\]0;title {2}the parser x+…$/);
    expect(line).not.toContain('second line');
    expect(eventText({ kind: 'verdict', checker: 'claude', completed: true, feedback: 'ok', iteration: 1, task: 'add docs', at })).toBe(
      'verdict of claude (iteration 1): ⚠ completed (unverified): ok · task: add docs',
    );
  });
});
