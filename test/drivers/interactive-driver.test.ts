/**
 * The interactive driver (src/drivers/interactive-driver.ts) under the real loop and reviewStop, with
 * a scripted checker and hook calls made by hand (no claude, no pty): each stop is answered in
 * turn with its hook output, malformed input at once; a stop whose review throws fails alone and
 * the next is reviewed; the agent's exit answers the waiting stops and ends the loop with the
 * agent's ending. The TUI end to end is test/loop/interactive.test.ts's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checker, Verdict } from '../../src/checkers/types.js';
import { loadConfig } from '../../src/config/load.js';
import { InteractiveDriver } from '../../src/drivers/interactive-driver.js';
import { runSupervised } from '../../src/loop/run-supervised.js';
import { Run } from '../../src/loop/run.js';
import { sessionSupervisedError } from '../../src/state/session-claims.js';
import { limitWaits } from '../../src/loop/limit-wait.js';
import { SupervisorSession } from '../../src/sessions/supervisor-session.js';

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-interactive-driver-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
  env = { HOME: root, CCC_CONFIG_DIR: path.join(root, 'config'), PATH: process.env.PATH };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A checker whose verdicts the test gives by hand, one per check, in order. */
function heldChecker() {
  const held: Array<(verdict: Verdict) => void> = [];
  const checker: Checker = { name: 'held', check: () => new Promise<Verdict>((resolve) => held.push(resolve)) };
  return { checker, held };
}

async function world(checker: Checker) {
  const resolved = await loadConfig({ cwd: project, env });
  Object.assign(resolved.config.supervisor, { max_iterations: 5, no_progress_limit: 100 });
  const session = new SupervisorSession({ resolved, pipeline: [{ checker, timeoutSeconds: 10 }], cwd: project, env, claudeArgs: [] });
  const driver = new InteractiveDriver({
    session,
    waits: limitWaits({ retrySeconds: 0, maxMinutes: 1 }),
    recentFrames: () => Promise.resolve([]),
    onStopFailure: () => {},
  });
  // The run's claims, as interactive's run makes them; `claim` is the edge a test may break.
  const run = new Run({ mode: 'interactive', configDir: resolved.configDir, cwd: project, warn: (message) => session.logger.warn(message) });
  const supervised = runSupervised(run, driver, session);
  const hookCall = (input: unknown) => driver.hookCall(typeof input === 'string' ? input : JSON.stringify(input), new AbortController().signal);
  const stop = (n: number) => ({
    session_id: 'the-session',
    cwd: project,
    hook_event_name: 'Stop',
    stop_hook_active: n > 1,
    last_assistant_message: `turn ${n}`,
  });
  return { session, run, driver, supervised, hookCall, stop };
}

const exited = { exit: { exitCode: 0 }, exitCode: 0 };

/** The loop goes on after a stop let through: the next stop is reviewed (complete), then the agent exits. */
async function reviewsTheNextAndEnds(w: Awaited<ReturnType<typeof world>>, held: Array<(verdict: Verdict) => void>): Promise<void> {
  const next = w.hookCall(w.stop(2));
  await expect.poll(() => held.length).toBe(1);
  held[0]!({ completed: true, feedback: 'done' });
  expect(JSON.parse(await next)).toEqual({ systemMessage: 'ccc: ⚠ review 1 (held): complete, unverified' });
  w.driver.close(exited);
  await w.supervised;
  await w.session.close();
}

describe('the interactive driver', () => {
  it('answers each stop in turn with its hook output, and ends with the agent', async () => {
    const { checker, held } = heldChecker();
    const { session, driver, supervised, hookCall, stop } = await world(checker);
    const first = hookCall(stop(1));
    const second = hookCall(stop(2));
    await expect.poll(() => held.length).toBe(1);
    held[0]!({ completed: false, feedback: 'add the test' });
    expect(JSON.parse(await first)).toMatchObject({ decision: 'block', reason: expect.stringContaining('add the test') });
    await expect.poll(() => held.length).toBe(2);
    held[1]!({ completed: true, feedback: 'done' });
    expect(JSON.parse(await second)).toEqual({ systemMessage: 'ccc: ⚠ review 2 (held): complete, unverified' });
    driver.close(exited);
    const run = await supervised;
    expect(run.exitCode).toBe(0);
    expect(run.ending?.how).toMatch(/^the agent exited with code 0 \(the user quit\); last stop: completed: /);
    await session.close();
  });

  it('answers malformed input at once, while a stop is in review', async () => {
    const { checker, held } = heldChecker();
    const { session, driver, supervised, hookCall, stop } = await world(checker);
    const inReview = hookCall(stop(1));
    await expect.poll(() => held.length).toBe(1);
    await expect(hookCall('not json')).resolves.toBe('');
    held[0]!({ completed: true, feedback: 'done' });
    await inReview;
    driver.close(exited);
    await supervised;
    await session.close();
  });

  it('fails only the stop whose review threw; the next stop is reviewed', async () => {
    const { checker, held } = heldChecker();
    const w = await world(checker);
    const { run, hookCall, stop } = w;
    const claim = run.claim.bind(run);
    let claims = 0;
    run.claim = (id) => (claims++ === 0 ? Promise.reject(new Error('the claims file broke')) : claim(id));
    await expect(hookCall(stop(1))).rejects.toThrow('the claims file broke');
    await reviewsTheNextAndEnds(w, held);
  });

  it('lets a stop of a session another live ccc supervises through, saying so, and reviews the next', async () => {
    const { checker, held } = heldChecker();
    const w = await world(checker);
    const { run, hookCall, stop } = w;
    const holder = { pid: 4242, mode: 'interactive' as const, cwd: project, started_at: new Date().toISOString() };
    const claim = run.claim.bind(run);
    run.claim = (id) => (id === 'taken' ? Promise.resolve(sessionSupervisedError(id, holder)) : claim(id));
    const refused = JSON.parse(await hookCall({ ...stop(1), session_id: 'taken' })) as { systemMessage: string };
    expect(refused.systemMessage).toMatch(/^ccc: stop not reviewed: session taken is already supervised by ccc \(pid 4242, interactive/);
    await reviewsTheNextAndEnds(w, held);
  });

  it('lets a stop whose project is gone through unreviewed, saying why, and the ending names it', async () => {
    const { checker, held } = heldChecker();
    const { session, driver, supervised, hookCall, stop } = await world(checker);
    const gone = path.join(root, 'gone');
    const answer = JSON.parse(await hookCall({ ...stop(1), cwd: gone })) as { systemMessage: string };
    expect(answer.systemMessage).toMatch(/^ccc: stop not reviewed: .*gone/);
    expect(held).toHaveLength(0);
    driver.close(exited);
    const run = await supervised;
    expect(run.ending?.how).toMatch(/; the work was not confirmed complete \(last stop: not reviewed: .*gone/);
    await session.close();
  });

  it("at the agent's exit, answers the waiting stops with nothing and ends once the stop in review is answered", async () => {
    const { checker, held } = heldChecker();
    const { session, driver, supervised, hookCall, stop } = await world(checker);
    const inReview = hookCall(stop(1));
    const waiting = hookCall(stop(2));
    await expect.poll(() => held.length).toBe(1);
    driver.close({ exit: { exitCode: 3 }, exitCode: 3 });
    await expect(waiting).resolves.toBe('');
    // The agent's exit cancels the review in progress (as `runInteractive` does), which answers its stop.
    session.end();
    expect(JSON.parse(await inReview)).toEqual({ systemMessage: expect.stringContaining('cancelled') });
    const run = await supervised;
    expect(run.exitCode).toBe(3);
    expect(run.ending?.how).toMatch(/^the agent exited with code 3; the work was not confirmed complete \(last stop: cancelled/);
    expect(held).toHaveLength(1);
    await session.close();
  });

  it('after a completion, a stop still in review when the agent exits: the ending names that stop, unconfirmed, not the completion', async () => {
    const { checker, held } = heldChecker();
    const { session, driver, supervised, hookCall, stop } = await world(checker);
    const first = hookCall(stop(1));
    await expect.poll(() => held.length).toBe(1);
    held[0]!({ completed: true, feedback: 'done' });
    expect(JSON.parse(await first)).toEqual({ systemMessage: 'ccc: ⚠ review 1 (held): complete, unverified' });
    const inReview = hookCall(stop(2));
    await expect.poll(() => held.length).toBe(2);
    driver.close(exited);
    session.end();
    await inReview;
    const run = await supervised;
    expect(run.ending?.how).toMatch(/^the agent exited with code 0 \(the user quit\); the work was not confirmed complete \(last stop: cancelled/);
    expect(driver.unconfirmedWork()).toMatch(/^the work was not confirmed complete \(last stop: cancelled/);
    await session.close();
  });
});
