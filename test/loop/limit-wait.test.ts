/**
 * A headless run left alone meets the model's limits: the scripted server answers 429 (with the
 * real API's headers, a retry-after of an hour, so claude itself gives up at once) to the agent's
 * or the reviewer's first requests. ccc waits it out on its schedule (here 1 s, then
 * 2 s, …: CCC_SUPERVISOR_LIMIT_RETRY_SECONDS), sends nothing while waiting, says when it resumes,
 * and resumes the same session: the work is verified and the run exits 0. A signal during the
 * wait ends the run at once with 128 + n; a spent waiting budget ends it on the failure.
 */
import { spawn } from 'node:child_process';
import { describe, expect, onTestFinished } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { limitWaits, waitOutLimit } from '../../src/loop/limit-wait.js';
import type { SupervisorEvent } from '../../src/loop/events.js';
import { expectWaitedTwice, refusingFirst } from '../support/limit-replies.js';
import { it, type Rig } from '../support/fixtures.js';

describe('waiting out the model limits in a headless run', () => {
  /**
   * The server refuses `who`'s first `refusals` requests with 429: a window counted in requests,
   * not in time, so that a slow claude start on a loaded machine cannot close it early.
   */
  const setup = (rig: Rig, who: 'agent' | 'review', refusals: number) => rig.start(refusingFirst(who, refusals));

  const env = { CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' };

  it("the agent's turn: waits on the schedule, resumes the same session, the work is verified, exit 0", async ({ rig }) => {
    const { server, world } = await setup(rig, 'agent', 2);
    const run = await runCcc(world, ['--supervisor', '-p', 'build it'], { env });
    expect(run.code, run.stderr).toBe(0);
    const agent = server.byKind('agent');
    expectWaitedTwice(agent); // three requests, 1 s then 2 s apart at least: ccc waited on its schedule
    // The same session: the resumed request holds the task, then the note that the turn was refused.
    expect(agent[2]!.text).toContain('build it');
    expect(agent[2]!.lastUserText).toMatch(/refused it on a rate limit, which has passed now/);
    expect(run.stderr).toMatch(/ccc: error: the agent was rate limited by the model's API: 429 Too Many Requests/);
    expect(run.stderr).toMatch(/ccc: waiting on the model's limit until \d\d:\d\d:\d\d \(in 1 s\), then resuming the agent's turn/);
    expect(run.stderr).toMatch(/ccc: waiting on the model's limit until \d\d:\d\d:\d\d \(in 2 s\), then resuming the agent's turn/);
    expect(run.stderr).toMatch(/⚠ complete \(claude, unverified/);
    expect(readLog(world)).toMatch(/\[WARN\] .*waiting on the model's limit until \S+, then resuming the session/);
  }, 120_000);

  it('the review: waits, reviews the same stop again (counted once), exit 0', async ({ rig }) => {
    const { server, world } = await setup(rig, 'review', 1);
    const run = await runCcc(world, ['--supervisor', '-p', 'build it'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(server.byKind('agent')).toHaveLength(1); // no agent turn is spent on a refused review
    expect(server.byKind('review').length).toBeGreaterThanOrEqual(2);
    expect(run.stderr).toMatch(/then resuming the review/);
    expect(run.stderr).toMatch(/ccc: review 1\/20/);
    expect(run.stderr).not.toMatch(/review 2\/20/); // the refused review was not a review
    expect(run.stderr).toMatch(/⚠ complete \(claude, unverified/);
  }, 120_000);

  it('a signal during the wait ends the run at once: exit 143, said, nothing sent after it', async ({ rig }) => {
    const { server, world } = await setup(rig, 'agent', Infinity);
    const child = spawn(process.execPath, [cccBin, '--supervisor', '-p', 'build it'], {
      cwd: world.cwd,
      env: { ...world.env, CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '600' },
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => stderr, { timeout: 60_000 }).toMatch(/waiting on the model's limit until/);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toMatch(/stopped: SIGTERM received/);
    expect(server.byKind('agent')).toHaveLength(1);
  });

  it('a spent waiting budget (limit_wait_minutes: 0) ends the run on the failure, as before', async ({ rig }) => {
    const { server, world } = await setup(rig, 'agent', Infinity);
    const run = await runCcc(world, ['--supervisor', '-p', 'build it'], { env: { CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: '0' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the agent was rate limited by the model's API/);
    expect(run.stderr).not.toMatch(/waiting on the model's limit/);
    expect(server.byKind('agent')).toHaveLength(1);
  });

  it('a review refused past the spent budget: exit 4 (a checker failed), said as a rate limit (docs/exit-codes.md)', async ({ rig }) => {
    const { world } = await setup(rig, 'review', Infinity);
    const run = await runCcc(world, ['--supervisor', '-p', 'build it'], { env: { CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: '0' } });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/the reviewer was rate limited by the model's API: 429 Too Many Requests/);
    expect(run.stderr).not.toMatch(/waiting on the model's limit/);
  });
});

describe('the waiting schedule', () => {
  it('doubles from the first wait, at most 15 minutes a step, until the budget is spent; a success starts it afresh', () => {
    const waits = limitWaits({ retrySeconds: 60, maxMinutes: 60 });
    const steps: number[] = [];
    for (let ms = waits.next(); ms !== undefined; ms = waits.next()) steps.push(ms / 60_000);
    expect(steps).toEqual([1, 2, 4, 8, 15, 15, 15]); // 60 minutes in all, the last step cut to what is left
    expect(waits.waitedMs).toBe(60 * 60_000);
    waits.reset();
    expect(waits.next()).toBe(60_000);
  });

  it('each wait says when it resumes and how it ended: resumed, then given up once the budget is spent', async () => {
    const events: SupervisorEvent[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const deps = { logger, emit: (e: SupervisorEvent) => events.push(e), waits: limitWaits({ retrySeconds: 0.005, maxMinutes: 0.0002 }), maxMinutes: 0.0002 };
    const signal = new AbortController().signal;
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await waitOutLimit({ ...deps, signal }, 'reviewer', 'the reviewer was rate limited'));
    expect(outcomes).toEqual(['waited', 'waited', 'spent']); // 5 ms, then the 7 ms left of 12
    expect(events.map((e) => (e.kind === 'wait-over' ? `${e.kind} ${e.outcome} ${e.waited_ms}` : e.kind))).toEqual([
      'waiting',
      'phase',
      'wait-over resumed 5',
      'waiting',
      'phase',
      'wait-over resumed 12',
      'wait-over gave-up 12',
    ]);
  });

  it('a budget of 0 waits not at all', () => {
    expect(limitWaits({ retrySeconds: 60, maxMinutes: 0 }).next()).toBeUndefined();
  });
});
