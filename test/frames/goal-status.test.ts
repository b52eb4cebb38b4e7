/**
 * The `/goal` a transcript records, as ccc reads it (src/frames/goal-status.ts,
 * src/frames/transcript-summary.ts), on the record shapes claude 2.1.330 writes (pinned in
 * test/claude/goal.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { createTranscriptSummary, userPromptOf } from '../../src/frames/transcript-summary.js';

const C = 'the file done.txt exists';
const status = (fields: Record<string, unknown>): Frame => ({ type: 'attachment', attachment: { type: 'goal_status', condition: C, ...fields } });
const set = status({ met: false, sentinel: true });
const cleared = status({ met: true, sentinel: true });
const notMet = status({ met: false, reason: 'missing' });
const met = status({ met: true, reason: 'written', iterations: 2 });
const impossible = status({ met: false, failed: true, reason: 'no disk' });
const command = (args: string): Frame => ({
  type: 'user',
  message: {
    role: 'user',
    content: `<command-name>/goal</command-name>\n            <command-message>goal</command-message>\n            <command-args>${args}</command-args>`,
  },
});
const prompt = (text: string): Frame => ({ type: 'user', message: { role: 'user', content: text } });
const answer = (text: string): Frame => ({ type: 'assistant', message: { id: text, role: 'assistant', content: [{ type: 'text', text }] } });
const feedback = (text: string): Frame => ({ type: 'user', isMeta: true, message: { role: 'user', content: `Stop hook feedback:\n${text}` } });
const summary: Frame = { type: 'system', subtype: 'stop_hook_summary' };

function read(frames: Frame[]) {
  const s = createTranscriptSummary();
  for (const frame of frames) s.add(frame);
  return s.result();
}

describe('the /goal of a transcript', () => {
  it('counts `/goal <condition>` as a prompt, not `/goal` alone or `/goal clear`', () => {
    expect(userPromptOf(command(C))).toBe(`/goal ${C}`);
    expect(userPromptOf(command(''))).toBeUndefined();
    expect(userPromptOf(command('clear'))).toBeUndefined();
    expect(userPromptOf(command('Cancel'))).toBeUndefined();
  });

  it('is active from its set record, and checked at the stop after the agent answers', () => {
    expect(read([set, command(C), answer('a')]).goal).toEqual({ condition: C, state: 'active', checkedAtStop: true });
    expect(read([set, command(C), answer('a'), feedback('x'), notMet]).goal).toEqual({
      condition: C,
      state: 'active',
      checkedAtStop: true,
      thisStop: 'not-met',
    });
    // The next answer is a new stop: the last one's check is not this one's.
    expect(read([set, command(C), answer('a'), notMet, answer('b')]).goal).toEqual({ condition: C, state: 'active', checkedAtStop: true });
  });

  it('stays part of the task once met or impossible, until the next prompt; a cleared goal is gone', () => {
    expect(read([set, answer('a'), met]).goal).toMatchObject({ state: 'met', thisStop: 'met' });
    expect(read([set, answer('a'), met, answer('b')]).goal).toEqual({ condition: C, state: 'met', checkedAtStop: false });
    expect(read([set, answer('a'), impossible]).goal).toMatchObject({ state: 'impossible', thisStop: 'impossible' });
    expect(read([set, answer('a'), met, prompt('next task')]).goal).toBeUndefined();
    expect(read([set, answer('a'), prompt('more')]).goal).toMatchObject({ state: 'active' });
    expect(read([set, answer('a'), cleared, command('clear')]).goal).toBeUndefined();
  });

  it('ignores a check of another condition and malformed records', () => {
    const other: Frame = { type: 'attachment', attachment: { type: 'goal_status', condition: 'other', met: true } };
    const malformed: Frame = { type: 'attachment', attachment: { type: 'goal_status', met: false, sentinel: true } };
    expect(read([set, answer('a'), other, malformed]).goal).toEqual({ condition: C, state: 'active', checkedAtStop: true });
    expect(read([malformed, answer('a')]).goal).toBeUndefined();
  });

  it('counts the stops in a row since the last prompt at which a Stop hook sent the agent back', () => {
    const stops = [prompt('go'), answer('a'), feedback('x'), feedback('y'), summary, answer('b'), feedback('z'), summary, answer('c'), summary];
    expect(read(stops).stopsSentBack).toBe(2);
    expect(read([...stops, prompt('again'), answer('d'), feedback('w'), summary]).stopsSentBack).toBe(1);
  });
});
