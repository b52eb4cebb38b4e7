/**
 * The loop's rules, through a ScriptedDriver and the real reviewStop with a scripted checker (no
 * claude): the iteration limit, the last-iteration rule and the wind-down, exit codes and stop
 * reasons, the denial rule, claims, waits on the model's limit, an interruption, the cost cap, the
 * no-progress guard and require_evidence. In seconds: the fast tier (`npm run test:fast`). Each stop and
 * answer is the driver's; everything between them is `supervise`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckContext, Checker, Verdict } from '../../src/checkers/types.js';
import { loadConfig } from '../../src/config/load.js';
import { CccError, ExitCode } from '../../src/errors.js';
import { STOP_REASONS, type StopReason, type SupervisorEvent } from '../../src/loop/events.js';
import { SessionCore } from '../../src/sessions/session-core.js';
import { sessionLogPath } from '../../src/state/paths.js';
import { exitCodeFor } from '../../src/loop/exit-codes.js';
import { runSupervised } from '../../src/loop/run-supervised.js';
import { Run } from '../../src/loop/run.js';
import type { AgentDriver } from '../../src/loop/driver.js';
import { claimPath } from '../../src/state/session-claims.js';
import { ScriptedDriver, type Script } from './scripted-driver.js';

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-supervise-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
  env = { HOME: root, CCC_CONFIG_DIR: path.join(root, 'config'), PATH: process.env.PATH };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A checker that answers from a list (the last answer repeats): `true` complete, a string the feedback. */
function scriptedChecker(answers: Array<true | string | ((context: CheckContext) => Verdict)>, name = 'scripted'): Checker & { checks: number } {
  const checker = {
    name,
    checks: 0,
    check(context: CheckContext): Verdict {
      const answer = answers[Math.min(checker.checks++, answers.length - 1)]!;
      if (typeof answer === 'function') return answer(context);
      return answer === true ? { completed: true, feedback: 'done' } : { completed: false, feedback: answer };
    },
  };
  return checker;
}

/** Feedback that is never the same twice (the no-progress guard stays out of the way). */
const incomplete = () => Array.from({ length: 12 }, (_, i) => `still missing part ${'abcdefghijkl'[i]} ${'xyz'.repeat(i)}`);

async function run(
  checker: ReturnType<typeof scriptedChecker>,
  script: Omit<Script, 'cwd'>,
  supervisor: Record<string, unknown> = {},
  edit: (session: SessionCore) => void = () => {},
) {
  const resolved = await loadConfig({ cwd: project, env });
  Object.assign(resolved.config.supervisor, { max_iterations: 3, no_progress_limit: 100, ...supervisor });
  const session = new SessionCore({ resolved, pipeline: [{ checker, timeoutSeconds: 10 }], cwd: project, env, claudeArgs: [] });
  edit(session);
  const events: SupervisorEvent[] = [];
  session.reporters.add({ onEvent: (e) => void events.push(e) });
  const driver = new ScriptedDriver({ cwd: project, ...script });
  const result = await runSupervised(runOf(session, driver), driver, session);
  await session.close();
  const log = fs.readFileSync(sessionLogPath(resolved.configDir, 'scripted-session'), 'utf8');
  const kinds = (kind: SupervisorEvent['kind']) => events.filter((e) => e.kind === kind);
  return { result, driver, events, kinds, log, session, checker };
}

/** The run a mode would make around its loop: its claims, reporters and lifetime (run.ts). */
function runOf(session: SessionCore, driver: AgentDriver): Run {
  return new Run({ mode: driver.mode, configDir: session.configDir, cwd: project, warn: (message) => session.logger.warn(message) });
}

/** A claim of `sessionId` by a live ccc other than this one (the test runner's parent process). */
function claimedElsewhere(configDir: string, sessionId: string, mode = 'interactive'): { pid: number } {
  const file = claimPath(configDir, sessionId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ pid: process.ppid, mode, cwd: project, started_at: new Date().toISOString() }));
  return { pid: process.ppid };
}

const actions = (driver: ScriptedDriver) => driver.answers.map((d) => (d.action === 'block' ? 'block' : `${d.action}:${d.reason}`));

describe('supervise', () => {
  it('a block sends the agent back; a confirmed completion ends the run with exit 0, no stopped event, one end', async () => {
    const { result, driver, kinds, log } = await run(scriptedChecker(['add the test', true]), { stops: 5 });
    expect(actions(driver)).toEqual(['block', 'allow:completed']);
    expect(result.exitCode).toBe(0);
    expect(kinds('stopped')).toEqual([]);
    expect(kinds('end')).toMatchObject([{ exit_code: 0, reviews: 2 }]);
    expect(log.match(/run ended/g)).toHaveLength(1);
    expect(log).toMatch(/exit_code=0 mode=headless .*run ended: completed: done/);
  });

  it('the last-iteration rule: a block at the last review pays for no turn; with wind_down the last turn is the wind-down (exit 3)', async () => {
    const { result, driver, kinds, checker } = await run(scriptedChecker(incomplete()), { stops: 10 });
    expect(checker.checks).toBe(3);
    expect(actions(driver)).toEqual(['block', 'block', 'wind-down:limit']);
    expect(result.exitCode).toBe(ExitCode.limit);
    expect(kinds('wind-down')).toHaveLength(1);
    expect(kinds('stopped')).toMatchObject([{ reason: 'limit', message: expect.stringContaining('the agent was given one last turn') }]);
    expect(kinds('end')).toMatchObject([{ exit_code: 3, reviews: 3 }]);
  });

  it('without wind_down the run ends at the last review (exit 3, reason limit), the last feedback kept from the agent', async () => {
    const { result, driver, kinds, log } = await run(scriptedChecker(incomplete()), { stops: 10 }, { wind_down: false });
    expect(actions(driver)).toEqual(['block', 'block', 'allow:limit']);
    expect(result.exitCode).toBe(ExitCode.limit);
    expect(kinds('stopped')).toMatchObject([{ reason: 'limit', message: expect.stringContaining('the iteration limit (3) was reached') }]);
    expect(log).toContain('iteration limit reached (3); the last feedback was not sent to the agent');
  });

  it('a driver whose agent goes on by itself is never cut short by the loop: reviewStop allows the stop past the limit', async () => {
    const { result, driver, checker, kinds } = await run(scriptedChecker(incomplete()), { stops: 5, blockPaysTurn: false });
    expect(checker.checks).toBe(3);
    // Three blocks, the wind-down at the fourth stop, the fifth (the wind-down turn's) allowed unreviewed.
    expect(actions(driver)).toEqual(['block', 'block', 'block', 'wind-down:limit', 'allow:limit']);
    expect(result).toMatchObject({ exitCode: 0, ending: { how: 'the agent made 5 stops' } });
    expect(kinds('end')).toHaveLength(1);
  });

  it('a checker that fails lets the stop through and ends the run with exit 4 (checker-failed)', async () => {
    const broken = scriptedChecker([
      () => {
        throw new Error('the reviewer crashed');
      },
    ]);
    const { result, kinds } = await run(broken, { stops: 3 });
    expect(result).toMatchObject({ exitCode: ExitCode.checkerFailed, decision: { reason: 'checker-failed' } });
    // The error was shown; the stop for it is said once.
    expect(kinds('stopped')).toHaveLength(1);
  });

  it('the denial rule: two turns in a row with refused calls end the run for the grant (exit 2, permission-denied, said once)', async () => {
    const { result, driver, kinds, log } = await run(scriptedChecker(incomplete()), { stops: 5, denied: [['Write'], ['Write']] });
    expect(actions(driver)).toEqual(['block', 'allow:permission-denied']);
    expect(driver.answers[0]).toMatchObject({ feedback: expect.stringContaining('your Write calls were denied') });
    expect(result.exitCode).toBe(ExitCode.usage);
    expect(kinds('stopped')).toMatchObject([{ reason: 'permission-denied' }]);
    expect(log).toContain("stopped supervising: the agent's Write calls were denied in 2 turns in a row");
  });

  it('a stop in a session another live ccc supervises is not reviewed', async () => {
    // A live ccc (the test runner's parent) holds session "taken": the run's claim meets it in the real claims file.
    let holder = { pid: 0 };
    const taken = (session: SessionCore) => void (holder = claimedElsewhere(session.configDir, 'taken'));
    const { result, driver, checker } = await run(scriptedChecker([true]), { stops: 2, sessionId: (i) => (i === 0 ? 'taken' : 'scripted-session') }, {}, taken);
    expect(driver.refused).toEqual([expect.stringContaining(`session taken is already supervised by ccc (pid ${holder.pid}, interactive`)]);
    expect(checker.checks).toBe(1);
    expect(result.exitCode).toBe(0);
  });

  it('a review the model refused on its limit is waited out and asked again within the same stop', async () => {
    const limited = scriptedChecker([
      () => {
        throw new CccError('CHECKER_FAILED', 'the reviewer hit the rate limit', { data: { model_failure: 'rate-limited' } });
      },
      true,
    ]);
    const { result, driver, kinds, checker } = await run(limited, { stops: 3 });
    expect(checker.checks).toBe(2);
    expect(actions(driver)).toEqual(['allow:completed']);
    expect(result.exitCode).toBe(0);
    expect(kinds('waiting')).toHaveLength(1);
    expect(kinds('wait-over')).toMatchObject([{ outcome: 'resumed' }]);
  });

  it('a run interrupted from outside ends with the signal exit code, one stopped (interrupted) and one end', async () => {
    const checker = scriptedChecker(incomplete());
    const resolved = await loadConfig({ cwd: project, env });
    Object.assign(resolved.config.supervisor, { max_iterations: 5, no_progress_limit: 100 });
    const session = new SessionCore({ resolved, pipeline: [{ checker, timeoutSeconds: 10 }], cwd: project, env, claudeArgs: [] });
    const events: SupervisorEvent[] = [];
    session.reporters.add({ onEvent: (e) => void events.push(e) });
    const driver = new ScriptedDriver({ cwd: project, stops: 5, beforeStop: (i) => i === 2 && session.interrupt('SIGTERM received', 143) });
    const result = await runSupervised(runOf(session, driver), driver, session);
    await session.close();
    expect(result.exitCode).toBe(143);
    expect(checker.checks).toBe(2);
    expect(events.filter((e) => e.kind === 'stopped')).toMatchObject([{ reason: 'interrupted', message: 'SIGTERM received' }]);
    expect(events.filter((e) => e.kind === 'end')).toMatchObject([{ exit_code: 143 }]);
  });
});

describe('runSupervised: one run, its ending said once on every path', () => {
  async function runOnce(checker: ReturnType<typeof scriptedChecker>, script: Omit<Script, 'cwd'>) {
    const resolved = await loadConfig({ cwd: project, env });
    Object.assign(resolved.config.supervisor, { max_iterations: 3, no_progress_limit: 100 });
    const session = new SessionCore({ resolved, pipeline: [{ checker, timeoutSeconds: 10 }], cwd: project, env, claudeArgs: [] });
    const events: SupervisorEvent[] = [];
    session.reporters.add({ onEvent: (e) => void events.push(e) });
    const driver = new ScriptedDriver({ cwd: project, ...script });
    const outcome: { result?: Awaited<ReturnType<typeof runSupervised>>; error?: Error } = await runSupervised(runOf(session, driver), driver, session).then(
      (result) => ({ result }),
      (error: Error) => ({ error }),
    );
    await session.close();
    const log = fs.readFileSync(sessionLogPath(resolved.configDir, 'scripted-session'), 'utf8');
    return { ...outcome, driver, log, ends: events.filter((e) => e.kind === 'end') };
  }

  it('a run that fails says so in its last line (the error, its exit code), with no end event, and the error goes on', async () => {
    const { error, log, ends } = await runOnce(scriptedChecker(['add the test']), { stops: 3, throwsAt: 1 });
    expect(error?.message).toBe('the answer to stop 2 could not be given');
    expect(ends).toEqual([]);
    expect(log.match(/run ended/g)).toHaveLength(1);
    expect(log).toMatch(/exit_code=1 mode=headless .*run ended: error: the answer to stop 2 could not be given/);
  });

  it("a failed run's last line is the driver's when it has one (the hook lets the stop through, exit 0)", async () => {
    const failedEnding = (e: unknown) => ({ exitCode: 0, how: `${(e as Error).message}; stop allowed`, level: 'error' as const });
    const { error, log } = await runOnce(scriptedChecker(['add the test']), { stops: 1, throwsAt: 0, mode: 'hook', failedEnding });
    expect(error).toBeDefined();
    expect(log).toMatch(/exit_code=0 mode=hook .*run ended: the answer to stop 1 could not be given; stop allowed/);
  });

  it("a decision's exit code is the driver's to map: the same limit ends one run with 3 and another with 0", async () => {
    const loop = await runOnce(scriptedChecker(incomplete()), { stops: 5, windsDown: false });
    expect(loop.result?.exitCode).toBe(ExitCode.limit);
    const hook = await runOnce(scriptedChecker(incomplete()), { stops: 5, windsDown: false, exitCodeOf: () => 0 });
    expect(hook.result?.exitCode).toBe(0);
    expect(hook.ends).toMatchObject([{ exit_code: 0 }]);
    expect(hook.log).toMatch(/exit_code=0 mode=headless .*reason=limit.*run ended/);
  });

  it('a stop whose handling threw is failed alone when the driver can: the loop takes the next stop and the run ends once', async () => {
    const { result, driver, ends, log } = await runOnce(scriptedChecker(['add the test', true]), { stops: 3, throwsAt: 0, failsStopAlone: true });
    expect(driver.failed).toMatchObject([{ message: 'the answer to stop 1 could not be given' }]);
    expect(actions(driver)).toEqual(['allow:completed']);
    expect(result?.exitCode).toBe(0);
    expect(ends).toMatchObject([{ exit_code: 0 }]);
    expect(log.match(/run ended/g)).toHaveLength(1);
  });
});

describe('supervise: the guards and the evidence rule', () => {
  it('the cost cap: what the reviews spent reaches max_cost_usd, the run winds down and ends with exit 3 (cost-cap)', async () => {
    const costly = (context: CheckContext): Verdict => {
      context.reportUsage?.({ cost_usd: 0.4 });
      return { completed: false, feedback: `not yet ${Math.random()}` };
    };
    const { result, driver, checker, kinds } = await run(scriptedChecker([costly]), { stops: 10 }, { max_iterations: 10, max_cost_usd: 1 });
    // $0.40, $0.80, then $1.20 at the third review: the cap stops the loop before another paid turn.
    expect(checker.checks).toBe(3);
    expect(actions(driver)).toEqual(['block', 'block', 'wind-down:cost-cap']);
    expect(result.exitCode).toBe(ExitCode.limit);
    expect(kinds('stopped')).toMatchObject([{ reason: 'cost-cap', message: expect.stringContaining('the cost cap of $1 was reached ($1.2000 spent') }]);
  });

  it('the no-progress guard: the same feedback over an unchanged project ends the run with exit 3 (no-progress)', async () => {
    const { result, driver, checker, kinds } = await run(
      scriptedChecker(['the parser test still fails']),
      { stops: 10 },
      { max_iterations: 10, no_progress_limit: 2 },
    );
    expect(checker.checks).toBeLessThan(10);
    expect(driver.answers.at(-1)).toMatchObject({ reason: 'no-progress' });
    expect(result.exitCode).toBe(ExitCode.limit);
    expect(kinds('stopped')).toMatchObject([{ reason: 'no-progress' }]);
  });

  it("require_evidence: the reviewer's complete over a collect-only run is refused and the agent told why; a passing run is accepted", async () => {
    const collectOnly = { command: 'pytest --co -q', exit_code: 0, not_counted: 'it only collects the tests (`--co`)' };
    const passing = { command: 'pytest -q', exit_code: 0, tests: 3, scope: 'whole' as const };
    const reviewer = scriptedChecker(
      [() => ({ completed: true, feedback: 'looks done', evidence: [collectOnly] }), () => ({ completed: true, feedback: 'tests pass', evidence: [passing] })],
      'claude',
    );
    const { result, driver, kinds } = await run(reviewer, { stops: 5 }, { reviewer: { require_evidence: true } });
    expect(actions(driver)).toEqual(['block', 'allow:completed']);
    expect(driver.answers[0]).toMatchObject({ feedback: expect.stringContaining('The work could not be verified') });
    expect(kinds('verdict')).toMatchObject([{ completed: false }, { completed: true, verification: 'verified' }]);
    expect(result.exitCode).toBe(0);
  });
});

describe('exitCodeFor', () => {
  it('maps every stop reason to its exit code', () => {
    const codes = Object.fromEntries(STOP_REASONS.map((reason: StopReason) => [reason, exitCodeFor({ reason })]));
    expect(codes).toEqual({
      completed: 0,
      limit: 3,
      'no-progress': 3,
      'permission-denied': 2,
      'cost-cap': 3,
      'checker-failed': 4,
      disabled: 0,
      'background-tasks': 0,
      goal: 3,
      recursion: 0,
      cancelled: 3,
      interrupted: 3,
    });
  });
});
