/** SUPERVISOR_LOG.md: the "Retry Event" Markdown of docs/kanban.md's Work Log, appended without losing anything. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRef } from '../../src/kanban/kanban-file.js';
import { formatFailureEvent, formatRetryEvent, eventLog } from '../../src/kanban/event-log.js';

const record = {
  at: new Date('2026-11-22T01:02:03.456Z'),
  agent: 'Implementor',
  task: 'tasks/001.md',
  issue: 'Invalid output format: "status" is missing',
  expected: { type: 'object', required: ['status', 'message'] },
  received: '{"message":"hi"}',
};

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('event log (SUPERVISOR_LOG.md)', () => {
  it("formats a Retry Event exactly as docs/kanban.md's Work Log shows it", () => {
    expect(formatRetryEvent({ ...record, retry: 2, maxRetries: 3 })).toBe(
      [
        '### [2026-11-22T01:02:03.456Z] Retry Event',
        '',
        '**Agent:** Implementor  ',
        '**Task:** tasks/001.md  ',
        '**Attempt:** 2/3  ',
        '**Issue:** Invalid output format: "status" is missing',
        '',
        '**Expected:**',
        '```json',
        '{\n  "type": "object",\n  "required": [\n    "status",\n    "message"\n  ]\n}',
        '```',
        '',
        '**Received:**',
        '```json',
        '{\n  "message": "hi"\n}',
        '```',
        '',
        '**Action:** Rescheduling with exact same parameters',
        '',
      ].join('\n'),
    );
  });

  it('fences received text so that its own fences cannot close the block, and cuts huge answers', () => {
    const entry = formatFailureEvent({ ...record, received: 'see:\n````md\nx\n````\n', attempts: 4, maxRetries: 3 });
    expect(entry).toContain('**Received:**\n`````text\nsee:\n````md\nx\n````\n\n`````');
    expect(entry).toContain('**Attempts:** 4 (3 retries)  ');
    const huge = formatRetryEvent({ ...record, received: 'x'.repeat(100_000), retry: 1, maxRetries: 3 });
    expect(huge.length).toBeLessThan(20_000);
    expect(huge).toContain(`… (${100_000 - 16 * 1024} more characters)`);
  });

  it('shows a schema in full once per log and points to that entry afterwards', async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-log-')));
    const log = eventLog(fileRef('kanban.yaml', dir));
    const manager = { ...record, agent: 'Manager', expected: { type: 'object', required: ['status', 'message', 'tasks', 'next_task'] } };
    await log.append((existing) => formatRetryEvent({ ...record, retry: 1, maxRetries: 3 }, existing));
    await log.append((existing) => formatRetryEvent({ ...manager, at: new Date('2026-11-22T01:05:00.000Z'), retry: 1, maxRetries: 3 }, existing));
    await log.append((existing) => formatRetryEvent({ ...record, at: new Date('2026-11-22T01:06:00.000Z'), retry: 2, maxRetries: 3 }, existing));
    await log.append((existing) => formatFailureEvent({ ...manager, attempts: 4, maxRetries: 3 }, existing));
    const text = fs.readFileSync(log.file.path, 'utf8');
    const expected = text.match(/^\*\*Expected:\*\*.*$/gm);
    expect(expected).toEqual([
      '**Expected:**',
      '**Expected:**',
      '**Expected:** the Implementor output schema, in full under "[2026-11-22T01:02:03.456Z] Retry Event" above',
      '**Expected:** the Manager output schema, in full under "[2026-11-22T01:05:00.000Z] Retry Event" above',
    ]);
    expect(text.match(/"next_task"/g)).toHaveLength(1);
    // A log whose full entry is gone (edited away) gets the schema in full again.
    expect(formatRetryEvent({ ...record, retry: 1, maxRetries: 3 }, '# cleared\n')).toContain('**Expected:**\n```json\n');
  });

  it('starts the file with the heading and appends entries after what is there', async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-log-')));
    const root = dir;
    const log = eventLog(fileRef('board/kanban.yaml', root));
    fs.mkdirSync(path.join(root, 'board'));
    await log.append('### one\n');
    await log.append('### two\n');
    expect(fs.readFileSync(path.join(root, 'board', 'SUPERVISOR_LOG.md'), 'utf8')).toBe('## Supervisor Log\n\n### one\n\n### two\n');
    expect(log.file.display).toBe('board/SUPERVISOR_LOG.md');

    fs.writeFileSync(log.file.path, '# Notes of the team\nkeep me');
    await log.append('### three\n');
    expect(fs.readFileSync(log.file.path, 'utf8')).toBe('# Notes of the team\nkeep me\n\n## Supervisor Log\n\n### three\n');
  });
});
