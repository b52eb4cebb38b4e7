/**
 * The review count across modes, with the real session state and transcript files and a checker
 * that always confirms: a new task counts from 1 whatever the session's history holds. The
 * end-to-end versions on the real claude are test/stop/new-task-count.test.ts and
 * test/loop/session-flags-interactive.test.ts ("--resume <id> of a headless run").
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { reviewStop, type ReviewStopDeps } from '../../src/loop/review-stop.js';
import { createNullLogger } from '../../src/log/memory-logger.js';
import type { StopEvent } from '../../src/stop/stop-event.js';
import { flushedAfterFirstLook } from '../support/late-flush.js';
import { stopEventAt } from '../support/stop-event.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const SESSION = 'resumed-session';
const EARLIER = 'EARLIER-TASK: set up the parser';
const TASK = 'NOW-TASK: finish the parser';

let t: TempHome;
let transcript: string;
beforeEach(() => {
  t = makeTempHome();
  transcript = path.join(t.root, `${SESSION}.jsonl`);
});
afterEach(() => t.cleanup());

const deps = (extra: Partial<ReviewStopDeps> = {}): ReviewStopDeps => ({
  config: defaultConfig(),
  configDir: t.claudeDir,
  pipeline: [{ checker: { name: 'confirms', check: () => ({ completed: true, feedback: 'done' }) }, timeoutSeconds: 10 }],
  logger: createNullLogger(),
  env: t.env,
  claudeArgs: [],
  frames: [],
  ...extra,
});

const stop = (extra: Partial<StopEvent> = {}): StopEvent => stopEventAt({ sessionId: SESSION, transcriptPath: transcript, cwd: t.project }, extra);

/** One turn as claude writes it: the user's prompt, then the agent's answer. */
function appendTurn(prompt: string, answer: string, id: string): void {
  const lines = [
    { type: 'user', message: { role: 'user', content: prompt } },
    { type: 'assistant', message: { id, role: 'assistant', content: [{ type: 'text', text: answer }] } },
  ];
  fs.appendFileSync(transcript, lines.map((line) => JSON.stringify(line) + '\n').join(''));
}

/** A finished headless run of EARLIER in this session, reviewed once. */
async function headlessRun(): Promise<void> {
  appendTurn(EARLIER, 'set up', 'm1');
  const decision = await reviewStop(stop({ lastAssistantMessage: 'set up' }), deps({ userPrompts: [EARLIER], newTask: true }));
  expect(decision).toMatchObject({ action: 'allow', reason: 'completed', iteration: 1 });
}

describe('reviewStop: the review count of a new task', () => {
  it('a stop of a resumed headless session that reaches ccc before claude flushed the turn counts the new task from 1', async () => {
    await headlessRun();
    // The TUI's stop arrives while the transcript still ends with the headless run: claude writes
    // the new turn while the stop waits for it.
    const late = flushedAfterFirstLook(SESSION, transcript, () => appendTurn(TASK, 'finished', 'm2'));
    const decision = await reviewStop(stop({ lastAssistantMessage: 'finished' }), deps({ frames: undefined, transcripts: late.readings }));
    expect(late.looks()).toBeGreaterThanOrEqual(2);
    expect(decision).toMatchObject({ action: 'allow', reason: 'completed', iteration: 1 });
  });

  it('a headless run that resumes a reviewed session counts its task from 1', async () => {
    await headlessRun();
    appendTurn(TASK, 'finished', 'm2');
    const decision = await reviewStop(stop({ lastAssistantMessage: 'finished' }), deps({ userPrompts: [TASK], newTask: true }));
    expect(decision).toMatchObject({ action: 'allow', reason: 'completed', iteration: 1 });
  });

  it("a headless run's later turn, answering a block, counts on", async () => {
    await headlessRun();
    appendTurn('Stop hook feedback: more', 'more done', 'm2');
    const decision = await reviewStop(stop({ lastAssistantMessage: 'more done', stopHookActive: true }), deps({ userPrompts: [EARLIER], newTask: false }));
    expect(decision).toMatchObject({ action: 'allow', reason: 'completed', iteration: 2 });
  });
});
