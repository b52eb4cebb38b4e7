/**
 * A transcript with lines that are not frames (one corrupt in the middle, one torn at the end while
 * claude is mid-write) is read again and again while the stop waits for claude to flush its turn:
 * each bad line is one warning in the log, not one per read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { reviewStop } from '../../src/loop/review-stop.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => (t = makeTempHome()));
afterEach(() => t.cleanup());

it('a corrupt middle line and a torn last line: one WARN each, with its line number, however often the stop reads the transcript', async () => {
  const transcript = path.join(t.root, 'torn.jsonl');
  const user = JSON.stringify({ type: 'user', message: { role: 'user', content: 'build the parser' } });
  // No assistant line yet: the stop reads the transcript again until it gives up waiting for one.
  fs.writeFileSync(transcript, `${user}\n{"type":"assistant","mess\n${user}\n{"type":"assistant","message":{"id":"m1","ro`);
  const logger = createRecordingLogger();
  const decision = await reviewStop(
    { sessionId: 'torn', transcriptPath: transcript, cwd: t.project, stopHookActive: false, backgroundTasks: [], raw: {}, lastAssistantMessage: 'done' },
    {
      config: defaultConfig(),
      configDir: t.claudeDir,
      pipeline: [{ checker: { name: 'confirms', check: () => ({ completed: true, feedback: 'done' }) }, timeoutSeconds: 10 }],
      logger,
      env: t.env,
      claudeArgs: [],
    },
  );
  expect(decision).toMatchObject({ action: 'allow', reason: 'completed' });
  const skipped = logger.lines.filter((line) => line.level === 'warn' && line.message.startsWith('Skipped a transcript line'));
  expect(skipped.map((line) => line.fields.line_no)).toEqual([2, 4]);
});
