/**
 * What a stop reads from the transcript costs what claude wrote since the last stop: the
 * interactive stop reads on through the live tail's reader (the frame window has the turn when
 * the stop's look answers), the flush wait reads only new bytes at each look, and the standalone
 * hook, a new process per stop, starts from the cursor the last stop kept in the session state.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tailTranscript } from '../../src/frames/transcript-tail.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { agentFrames } from '../../src/loop/agent-frames.js';
import { readContext } from '../../src/loop/stop-context.js';
import { InMemoryReadings, SessionStateReadings } from '../../src/loop/transcript-readings.js';
import { readSessionState, updateSessionState } from '../../src/state/session-state.js';
import type { StopEvent } from '../../src/stop/stop-event.js';
import { countBytesRead } from '../support/bytes-read.js';
import { flushedAfterFirstLook } from '../support/late-flush.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const SESSION = '5e55104e-0000-4000-8000-000000000001';
const user = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
const answer = (id: string, text: string) =>
  `${JSON.stringify({ type: 'assistant', message: { id, role: 'assistant', content: [{ type: 'text', text }] } })}\n`;
/** A long session's history: many tool results, one prompt per hundred lines. */
const history = (lines: number) =>
  Array.from({ length: lines }, (_, i) =>
    i % 100 === 0
      ? user(`task ${i}`)
      : `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'ok '.repeat(150) }] } })}\n`,
  ).join('');

let t: TempHome;
let file: string;
const controllers: AbortController[] = [];
beforeEach(() => {
  t = makeTempHome();
  file = path.join(t.root, 'transcript.jsonl');
});
afterEach(() => {
  vi.restoreAllMocks();
  controllers.forEach((c) => c.abort());
  t.cleanup();
});

const stopOf = (extra: Partial<StopEvent> = {}): StopEvent => ({
  sessionId: SESSION,
  transcriptPath: file,
  cwd: t.project,
  stopHookActive: false,
  backgroundTasks: [],
  raw: {},
  ...extra,
});

describe('what a stop reads', () => {
  it('interactive: the stop reads on through the live tail, so the file is read once and the window has the turn when the look answers', async () => {
    fs.writeFileSync(file, history(3000) + answer('m1', 'first answer'));
    const size = fs.statSync(file).size;
    const logger = createRecordingLogger();
    const readings = new InMemoryReadings(logger);
    const controller = new AbortController();
    controllers.push(controller);
    const ids = new Subject<string>();
    const frames = agentFrames(ids, (id) => tailTranscript(readings.follow(id, file), controller.signal, { pollMs: 50 }));
    const read = await countBytesRead(file);
    ids.next(SESSION);
    const deps = { configDir: t.claudeDir, logger, env: t.env, transcripts: readings };
    const first = await readContext(stopOf(), deps);
    expect(first).toMatchObject({ lastAssistantText: 'first answer', frames: 3001 });
    // The tail and the stop's look shared one reading of the file (and a few bytes to recognise it).
    expect(read.bytes()).toBeLessThan(size + 1000);
    // The window saw every frame before the look answered: the review's frames need no wait.
    const window = await frames.recent(SESSION, first.frames, 1);
    expect(window.at(-1)).toMatchObject({ type: 'assistant' });

    read.reset();
    const turn = user('second task') + answer('m2', 'second answer');
    fs.appendFileSync(file, turn);
    await updateSessionState(t.claudeDir, SESSION, (s) => ({ ...s, transcript_frames: first.frames }));
    const second = await readContext(stopOf(), deps);
    expect(second).toMatchObject({ lastAssistantText: 'second answer', frames: 3003 });
    expect(second.userPrompts.at(-1)).toBe('second task');
    expect(read.bytes()).toBeLessThan(turn.length + 1000);
    expect((await frames.recent(SESSION, second.frames, 1)).at(-1)).toMatchObject({ message: { id: 'm2' } });
    frames.stop();
  });

  it('the flush wait reads only what is new at each look, not the whole file again', async () => {
    fs.writeFileSync(file, history(3000) + answer('m1', 'old answer') + user('new task'));
    const size = fs.statSync(file).size;
    // The last review saw every frame: this stop's turn is not written yet.
    await updateSessionState(t.claudeDir, SESSION, (s) => ({ ...s, transcript_frames: 3002 }));
    const late = flushedAfterFirstLook(SESSION, file, () => fs.appendFileSync(file, answer('m2', 'new answer')));
    const read = await countBytesRead(file);
    // The hook's input names the turn's last message: the wait is for it, not for a time.
    const deps = { configDir: t.claudeDir, logger: createRecordingLogger(), env: t.env, transcripts: late.readings };
    const context = await readContext(stopOf({ lastAssistantMessage: 'new answer' }), deps);
    expect(context).toMatchObject({ lastAssistantText: 'new answer', userPrompts: expect.arrayContaining(['new task']) });
    expect(late.looks()).toBeGreaterThanOrEqual(2);
    // The first look read the file; every look after it a few bytes, not the file's size again.
    expect(read.bytes()).toBeGreaterThanOrEqual(size);
    expect(read.bytes()).toBeLessThan(size + 20_000);
  });

  it('the standalone hook: each stop, a new process, reads on from the cursor the last one kept in the session state', async () => {
    fs.writeFileSync(file, history(3000) + answer('m1', 'first answer'));
    const logger = createRecordingLogger();
    const hookDeps = () => ({ configDir: t.claudeDir, logger, env: t.env, transcripts: new SessionStateReadings(t.claudeDir, logger, 20) });
    const first = await readContext(stopOf(), hookDeps());
    expect(first.userPrompts).toHaveLength(30);
    const kept = (await readSessionState(t.claudeDir, SESSION))?.transcript_cursor as { offset: number };
    expect(kept.offset).toBe(fs.statSync(file).size);

    const turn = user('the next task') + answer('m2', 'next answer');
    fs.appendFileSync(file, turn);
    await updateSessionState(t.claudeDir, SESSION, (s) => ({ ...s, transcript_frames: first.frames }));
    const read = await countBytesRead(file);
    const second = await readContext(stopOf(), hookDeps());
    expect(second.userPrompts).toHaveLength(31);
    expect(second).toMatchObject({ lastAssistantText: 'next answer', frames: 3003 });
    expect(read.bytes()).toBeLessThan(turn.length + 1000);
    expect(((await readSessionState(t.claudeDir, SESSION))?.transcript_cursor as { offset: number }).offset).toBe(fs.statSync(file).size);
  });
});
