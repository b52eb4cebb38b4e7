/**
 * A stop the /goal lets through is reviewed even when its hook reaches ccc before claude wrote the
 * turn (docs/design/stop-path.md, "A /goal beside ccc"): read too early, the transcript still ends
 * with the previous stop's "not met", and that stop's status was taken for this one's, so the
 * stop the goal let through went unreviewed. With the real session state and transcript files; the
 * end-to-end case on the real claude under load is test/loop/goal-interactive.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { createNullLogger } from '../../src/log/memory-logger.js';
import { reviewStop, type ReviewStopDeps } from '../../src/loop/review-stop.js';
import type { StopEvent } from '../../src/stop/stop-event.js';
import { flushedAfterFirstLook } from '../support/late-flush.js';
import { stopEventAt } from '../support/stop-event.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const SESSION = 'goal-race-session';
const CONDITION = 'the file done.txt exists';

let t: TempHome;
let transcript: string;
let reviews: number;
beforeEach(() => {
  t = makeTempHome();
  transcript = path.join(t.root, `${SESSION}.jsonl`);
  reviews = 0;
});
afterEach(() => t.cleanup());

const deps = (): ReviewStopDeps => ({
  config: defaultConfig(),
  configDir: t.claudeDir,
  pipeline: [{ checker: { name: 'confirms', check: () => ((reviews += 1), { completed: true, feedback: 'done' }) }, timeoutSeconds: 10 }],
  logger: createNullLogger(),
  env: t.env,
  claudeArgs: [],
  frames: [],
});

const stop = (extra: Partial<StopEvent> = {}): StopEvent => stopEventAt({ sessionId: SESSION, transcriptPath: transcript, cwd: t.project }, extra);

const write = (...lines: object[]) => fs.appendFileSync(transcript, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
const answer = (id: string, text: string) => ({ type: 'assistant', message: { id, role: 'assistant', content: [{ type: 'text', text }] } });
const goalStatus = (status: object) => ({ type: 'attachment', attachment: { type: 'goal_status', condition: CONDITION, ...status } });

/** Stop 1 as claude writes it: the /goal, the agent's answer, the evaluator's "not met"; ccc leaves it to the goal. */
async function firstStopSentBack(): Promise<void> {
  write(
    { type: 'user', message: { role: 'user', content: `<command-name>/goal</command-name>\n<command-args>${CONDITION}</command-args>` } },
    goalStatus({ met: false, sentinel: true }),
    answer('m1', 'agent answer 0'),
    goalStatus({ met: false, reason: 'no done.txt yet' }),
  );
  expect(await reviewStop(stop({ lastAssistantMessage: 'agent answer 0' }), deps())).toMatchObject({ action: 'allow', reason: 'goal' });
  write(
    { type: 'user', isMeta: true, message: { role: 'user', content: `Stop hook feedback:\n[${CONDITION}]: no done.txt yet` } },
    { type: 'system', subtype: 'stop_hook_summary' },
  );
}

describe('a stop the /goal lets through, reached before claude wrote its turn', () => {
  it.each([
    ['matched to the hook input’s last assistant message', { lastAssistantMessage: 'agent answer 1' }],
    ['without it, past the position the goal’s stop read to', {}],
  ])('is reviewed, %s', async (_how, input: Partial<StopEvent>) => {
    await firstStopSentBack();
    // Stop 2's hook fires; claude writes the turn and the evaluator's "met" while the stop waits for them.
    const late = flushedAfterFirstLook(SESSION, transcript, () =>
      write(answer('m2', 'agent answer 1'), goalStatus({ met: true, reason: 'done.txt written', iterations: 2 })),
    );
    const decision = await reviewStop(stop({ stopHookActive: true, ...input }), { ...deps(), transcripts: late.readings });
    expect(late.looks()).toBeGreaterThanOrEqual(2);
    expect(decision).toMatchObject({ action: 'allow', reason: 'completed' });
    expect(reviews).toBe(1);
  });
});
