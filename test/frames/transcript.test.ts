/**
 * Reading a session transcript: where it lives, and which user messages are the user's own
 * prompts. The fixture is a real interactive transcript of claude 2.1.330 (a prompt, a Bash tool
 * call, a Stop hook that blocked once, `!echo hello`, a custom `/greet world` command, a second
 * prompt), with the bulky system-prompt attachments removed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { projectDirName, readTranscript, transcriptPath, transcriptPathFor } from '../../src/frames/transcript.js';
import { createTranscriptSummary, userPromptOf } from '../../src/frames/transcript-summary.js';
import { LIMIT_RESUME_NOTE } from '../../src/loop/limit-resume-note.js';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'interactive-transcript.jsonl');

function warnings() {
  const list: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  return { list, warn: (message: string, fields?: Record<string, unknown>) => list.push({ message, fields }) };
}

let tmp: string | undefined;
afterEach(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

describe('transcriptPath', () => {
  it('replaces every character but [a-zA-Z0-9] of the cwd with -', () => {
    expect(transcriptPath('/home/u', '/tmp/ccc-test-pDomHw/project', 'sid')).toBe('/home/u/.claude/projects/-tmp-ccc-test-pDomHw-project/sid.jsonl');
    // Observed: "/…/project/my.proj_dir with space+ü" → "…-project-my-proj-dir-with-space--"
    expect(projectDirName('/p/my.proj_dir with space+ü')).toBe('-p-my-proj-dir-with-space--');
  });

  it('follows CLAUDE_CONFIG_DIR when it is set, HOME otherwise', () => {
    expect(transcriptPathFor({ HOME: '/home/u' }, '/w', 's')).toBe('/home/u/.claude/projects/-w/s.jsonl');
    expect(transcriptPathFor({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/etc/cc' }, '/w', 's')).toBe('/etc/cc/projects/-w/s.jsonl');
  });

  it('cuts names over 200 characters and appends the hash claude uses', () => {
    // Observed on claude 2.1.330 for exactly this cwd.
    const cwd = `/tmp/ccc-test-x2v1P3/project/${'x'.repeat(250)}`;
    expect(projectDirName(cwd)).toBe(`-tmp-ccc-test-x2v1P3-project-${'x'.repeat(171)}-7delab`);
  });
});

describe('readTranscript', () => {
  it("keeps only the user's own prompts and the last assistant text", async () => {
    const summary = await readTranscript(fixture);
    expect(summary.userPrompts).toEqual(['please do the thing', 'second prompt']);
    expect(summary.lastAssistantText).toBe('Reply 5');
    expect(summary.frames).toBe(44);
  });

  it('reads through binary garbage, truncated JSON and an over-long line, with a WARN for each', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-transcript-'));
    const file = path.join(tmp, 's.jsonl');
    const user = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
    fs.writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${user('first')}\n`),
        Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x0a]),
        Buffer.from('{"type":"user","message":{"role":"user","content":"cut sho\n'),
        Buffer.from(`${user('x'.repeat(5000))}\n`),
        Buffer.from(`${user('second')}\n`),
      ]),
    );
    const logger = warnings();
    const summary = await readTranscript(file, { logger, maxLineBytes: 1000 });
    expect(summary.userPrompts).toEqual(['first', 'second']);
    expect(summary.frames).toBe(2);
    expect(logger.list.map((w) => w.message)).toEqual([
      'Skipped a transcript line: binary data',
      expect.stringContaining('Skipped a transcript line: invalid JSON'),
      'Skipped a transcript line longer than the limit',
    ]);
  });

  it('rejects with ENOENT for a missing file', async () => {
    await expect(readTranscript('/nonexistent/ccc/x.jsonl')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('userPromptOf and the summary', () => {
  const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });

  it.each([
    ['a tool result', user([{ type: 'tool_result', tool_use_id: 't', content: 'hi' }])],
    ['Stop-hook feedback (transcript)', user('Stop hook feedback:\nPlease add tests', { isMeta: true })],
    ['Stop-hook feedback (stream-json stdout)', user([{ type: 'text', text: 'Stop hook feedback:\nPlease add tests' }], { isSynthetic: true })],
    ['Stop-hook feedback without its meta flag', user('Stop hook feedback:\nx')],
    ['--json-schema nagging', user([{ type: 'text', text: '[structured-output-enforce] You MUST call the StructuredOutput tool' }], { isSynthetic: true })],
    ['a slash-command wrapper', user('<command-name>/cost</command-name>\n<command-message>cost</command-message>')],
    ['local command output', user('<local-command-stdout>Total cost: $0.00</local-command-stdout>')],
    ['a system reminder', user('<system-reminder>\nToday is Monday\n</system-reminder>')],
    ['an interruption', user([{ type: 'text', text: '[Request interrupted by user]' }])],
    ['a subagent prompt', user('look around', { isSidechain: true })],
    ['an assistant message', { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } }],
  ])('is not a prompt: %s', (_name, frame) => {
    expect(userPromptOf(frame)).toBeUndefined();
  });

  it('joins the text blocks of a prompt that has an image, dropping reminder blocks', () => {
    const frame = user([
      { type: 'image', source: { type: 'base64', data: 'AAAA' } },
      { type: 'text', text: '<system-reminder>x</system-reminder>' },
      { type: 'text', text: 'what is in this picture?' },
    ]);
    expect(userPromptOf(frame)).toBe('what is in this picture?');
  });

  it('joins the text blocks of one assistant message written as separate lines, and replaces on a new message', () => {
    const assistant = (id: string, content: unknown[]) => ({ type: 'assistant', message: { id, role: 'assistant', content } });
    const summary = createTranscriptSummary();
    summary.add(assistant('m1', [{ type: 'text', text: 'old' }]));
    summary.add(assistant('m2', [{ type: 'text', text: 'Part one' }]));
    summary.add(assistant('m2', [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }]));
    summary.add(assistant('m2', [{ type: 'text', text: 'Part two' }]));
    summary.add(assistant('m3', [{ type: 'thinking', thinking: 'hmm' }]));
    expect(summary.result().lastAssistantText).toBe('Part one\nPart two');
  });

  it("does not take ccc's note after a wait on the model's limit for a new prompt: the task goes on", () => {
    const summary = createTranscriptSummary();
    summary.add(user('build the thing'));
    summary.add(user(LIMIT_RESUME_NOTE));
    expect(summary.result().userPrompts).toEqual(['build the thing']);
  });

  it('counts the frames up to the last assistant line, text or not, so a stop can tell a transcript that has its answer', () => {
    const summary = createTranscriptSummary();
    expect(summary.result().framesToLastAssistant).toBe(0);
    summary.add({ type: 'user', message: { role: 'user', content: 'task' } });
    summary.add({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] } });
    expect(summary.result().framesToLastAssistant).toBe(2);
    summary.add({ type: 'system', subtype: 'stop_hook_summary' });
    summary.add({ type: 'attachment' });
    expect(summary.result()).toMatchObject({ frames: 4, framesToLastAssistant: 2 });
  });
});
