/**
 * reviewStop with the run's record, as the interactive driver and `ccc kanban` run it: stops
 * reached by going on after a block (`stop_hook_active`) whose session id changes each time are
 * one task, counted to the limit and wound down once; a stop the user started is a new task. The
 * real claude's version: test/loop/run-caps.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { reviewStop, type ReviewStopDeps } from '../../src/loop/review-stop.js';
import { createNullLogger } from '../../src/log/memory-logger.js';
import { fileRunTasks, memoryRunTasks, runTaskPath, type RunTasks } from '../../src/state/run-task.js';
import type { StopEvent } from '../../src/stop/stop-event.js';
import type { SupervisorEvent } from '../../src/loop/events.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => (t = makeTempHome()));
afterEach(() => t.cleanup());

function deps(run: RunTasks, events: SupervisorEvent[]): ReviewStopDeps {
  const config = defaultConfig();
  config.supervisor.max_iterations = 3;
  config.supervisor.no_progress_limit = 20;
  let n = 0;
  return {
    config,
    configDir: t.claudeDir,
    pipeline: [{ checker: { name: 'never-done', check: () => ({ completed: false, feedback: `missing part ${++n}` }) }, timeoutSeconds: 10 }],
    logger: createNullLogger(),
    env: t.env,
    claudeArgs: [],
    frames: [],
    userPrompts: ['the task'],
    emit: (e) => events.push(e),
    run,
  };
}

function stop(id: number, stopHookActive: boolean): StopEvent {
  const sessionId = `session-${id}`;
  const transcriptPath = path.join(t.root, `${sessionId}.jsonl`);
  fs.writeFileSync(transcriptPath, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'the task' } })}\n`);
  return { sessionId, transcriptPath, cwd: t.project, stopHookActive, backgroundTasks: [], raw: {} };
}

describe('reviewStop counts the run, not the session id', () => {
  it('a new id at every continued stop: reviews 1, 2, 3, then the wind-down once, then its end; one warning event', async () => {
    const events: SupervisorEvent[] = [];
    const d = deps(memoryRunTasks(), events);
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await reviewStop(stop(i, i > 0), d));
    expect(decisions.map((x) => x.action)).toEqual(['block', 'block', 'block', 'wind-down', 'allow']);
    expect(decisions.map((x) => x.iteration)).toEqual([1, 2, 3, 3, 3]);
    expect(decisions[4]).toMatchObject({ reason: 'limit' });
    expect(events.filter((e) => e.kind === 'iteration').map((e) => (e as { n: number }).n)).toEqual([1, 2, 3]);
    expect(events.filter((e) => e.kind === 'warning')).toHaveLength(1);
  });

  it('a stop the user started (not a continuation) in a new session is a new task: counted from 1', async () => {
    const events: SupervisorEvent[] = [];
    const d = deps(memoryRunTasks(), events);
    await reviewStop(stop(0, false), d);
    await reviewStop(stop(1, true), d);
    expect(await reviewStop(stop(2, false), d)).toMatchObject({ action: 'block', iteration: 1 });
    expect(events.filter((e) => e.kind === 'warning')).toHaveLength(1);
  });

  it('the standalone hook keeps the record in a file per claude process; a damaged file counts as none', async () => {
    const run = fileRunTasks(t.claudeDir, `${process.pid}-1`);
    const d = deps(run, []);
    await reviewStop(stop(0, false), d);
    expect(await reviewStop(stop(1, true), deps(fileRunTasks(t.claudeDir, `${process.pid}-1`), []))).toMatchObject({ iteration: 2 });
    expect(await run.read()).toMatchObject({ sessionId: 'session-1', taskSessionId: 'session-0', iteration: 2, idChanges: 1 });
    fs.writeFileSync(runTaskPath(t.claudeDir, `${process.pid}-1`), '{not json');
    expect(await run.read()).toBeUndefined();
  });
});
