/**
 * The run around the loop, the same for every mode (src/loop/run.ts): it claims the session the
 * mode knows at its launch before anything else starts, and each stop's as the loop meets it, all in
 * the real claims files; it closes the reporters it was given once, on every path; it releases what
 * joined its lifetime in reverse, then the session (whose line is the log's last), then the claims.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { isCccError } from '../../src/errors.js';
import { SessionCore } from '../../src/sessions/session-core.js';
import { sessionLogPath } from '../../src/state/paths.js';
import { claimPath, sessionSupervisedError } from '../../src/state/session-claims.js';
import type { Reporter } from '../../src/reporters/reporter.js';
import { Run, type RunPlan } from '../../src/loop/run.js';
import { runSupervised } from '../../src/loop/run-supervised.js';
import { ScriptedDriver } from './scripted-driver.js';

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-run-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
  env = { HOME: root, CCC_CONFIG_DIR: path.join(root, 'config'), PATH: process.env.PATH };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const SESSION = 'scripted-session';

async function world(plan: Partial<RunPlan> = {}) {
  const resolved = await loadConfig({ cwd: project, env });
  const checker = { name: 'done', check: () => ({ completed: true, feedback: 'done' }) };
  const session = new SessionCore({ resolved, pipeline: [{ checker, timeoutSeconds: 10 }], cwd: project, env, claudeArgs: [] });
  session.setSessionId(SESSION);
  const run = new Run({ mode: 'headless', configDir: resolved.configDir, cwd: project, warn: (message) => session.logger.warn(message), ...plan });
  run.hold(session);
  const said: string[] = [];
  const reporter: Reporter = { onEvent: (e) => void said.push(e.kind), close: async (end) => void said.push(`close ${end.exitCode}`) };
  const claimFile = (id = SESSION) => claimPath(resolved.configDir, id);
  const claimant = (id = SESSION) => (fs.existsSync(claimFile(id)) ? (JSON.parse(fs.readFileSync(claimFile(id), 'utf8')) as { pid: number }).pid : undefined);
  const log = () => fs.readFileSync(sessionLogPath(resolved.configDir, SESSION), 'utf8');
  return { run, session, reporter, said, claimFile, claimant, log };
}

/** A claim of the session by a live ccc other than this one (the test runner's parent process). */
function claimedElsewhere(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ pid: process.ppid, mode: 'interactive', cwd: project, started_at: new Date().toISOString() }));
  return process.ppid;
}

describe('Run: one claim, one set of reporters, one lifetime', () => {
  it("claims the launch's session before its body starts, and releases it once the run is over", async () => {
    const { run, claimant } = await world({ sessionId: SESSION });
    const during = await run.using(async () => claimant());
    expect(during).toBe(process.pid);
    expect(claimant()).toBeUndefined();
  });

  it("refuses a launch's session another live ccc supervises before anything of the run starts: SESSION_SUPERVISED, said as the log's last line", async () => {
    const { run, said, claimFile, claimant, log } = await world({ sessionId: SESSION });
    const holder = claimedElsewhere(claimFile());
    let started = false;
    const error = await run
      .using(async () => {
        started = true;
      })
      .catch((e: unknown) => e);
    expect(isCccError(error) && error.code).toBe('SESSION_SUPERVISED');
    expect((error as Error).message).toContain(`already supervised by ccc (pid ${holder}, interactive`);
    expect(started).toBe(false);
    expect(said).toEqual([]);
    // The other ccc's claim stays.
    expect(claimant()).toBe(holder);
    expect(log().trim().split('\n').at(-1)).toMatch(/\[ERROR\].*exit_code=2 mode=headless .*run ended: error: session scripted-session is already supervised/);
  });

  it("takes a claim as the mode's policy says (the hook waits; its refusal has its own words and its own ending)", async () => {
    const { run, claimFile, log } = await world({
      mode: 'hook',
      sessionId: SESSION,
      claimPolicy: async (take, id) => {
        const holder = await take();
        return holder && sessionSupervisedError(id, holder, 'another hook has it');
      },
      failedEnding: (e) => ({ how: `stop not reviewed: ${(e as Error).message}`, exitCode: 0, level: 'warn' }),
    });
    claimedElsewhere(claimFile());
    await expect(run.using(async () => {})).rejects.toThrow('another hook has it');
    expect(log().trim().split('\n').at(-1)).toMatch(/\[WARN\].*exit_code=0 mode=hook .*run ended: stop not reviewed: another hook has it/);
  });

  it("claims each stop's session in the loop through the same run: a stop another ccc holds goes to the driver's notSupervised", async () => {
    const { run, session, claimFile, claimant } = await world();
    const holder = claimedElsewhere(claimFile('taken'));
    const driver = new ScriptedDriver({ cwd: project, stops: 2, sessionId: (i) => (i === 0 ? 'taken' : SESSION) });
    const result = await run.using(async () => {
      const supervised = await runSupervised(run, driver, session);
      expect(claimant()).toBe(process.pid);
      return supervised;
    });
    expect(result.exitCode).toBe(0);
    expect(driver.refused).toEqual([expect.stringContaining(`session taken is already supervised by ccc (pid ${holder}`)]);
    expect(claimant('taken')).toBe(holder);
    expect(claimant()).toBeUndefined();
  });

  it("closes its reporters once with the run's exit code, after what the body acquired and before the session, whose line is the log's last", async () => {
    const { run, session, reporter, said, log } = await world();
    const order: string[] = [];
    run.report([reporter, { onEvent: () => {}, close: async () => void order.push('reporters') }]);
    const close = session.close.bind(session);
    session.close = async () => {
      order.push('session');
      await close();
    };
    await run.using(async () => {
      run.lifetime.add(() => order.push('acquired first'));
      run.lifetime.add(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push('acquired last');
      });
      run.exitCode = 3;
      session.endedAs({ mode: 'headless', how: 'as the mode said', exitCode: 3 });
    });
    expect(order).toEqual(['acquired last', 'acquired first', 'reporters', 'session']);
    expect(said).toEqual(['close 3']);
    expect(log().trim().split('\n').at(-1)).toMatch(/run ended: as the mode said/);
  });

  it('on an error: the reporters are closed with no exit code, everything is released, the error goes on and is the ending', async () => {
    const { run, reporter, said, log } = await world({ exitCode: 0 });
    run.report([reporter]);
    const released: string[] = [];
    await expect(
      run.using(async () => {
        run.lifetime.add(() => released.push('resource'));
        throw new Error('the agent could not start');
      }),
    ).rejects.toThrow('the agent could not start');
    expect(released).toEqual(['resource']);
    expect(said).toEqual(['close undefined']);
    expect(log().trim().split('\n').at(-1)).toMatch(/\[ERROR\].*exit_code=1 mode=headless .*run ended: error: the agent could not start/);
  });

  it("a run its mode ends itself (a kanban board's outcome) says that ending once and closes the reporters with its exit code", async () => {
    const { run, reporter, said, log } = await world({ mode: 'kanban' });
    run.report([reporter]);
    await run.using(async () => {
      run.endAs({ how: 'the workflow stopped at task 2', exitCode: 4, level: 'warn' });
      run.endAs({ how: 'a second word', exitCode: 0 });
    });
    expect(said).toEqual(['close 4']);
    expect(log().match(/run ended/g)).toHaveLength(1);
    expect(log().trim().split('\n').at(-1)).toMatch(/\[WARN\].*exit_code=4 mode=kanban .*run ended: the workflow stopped at task 2/);
  });

  it('a release that fails is warned of in the log and skips none of the others', async () => {
    const { run, reporter, said, log } = await world();
    run.report([reporter]);
    const released: string[] = [];
    await expect(
      run.using(async () => {
        run.lifetime.add(() => released.push('older'));
        run.lifetime.add(() => {
          throw new Error('the socket would not close');
        });
        run.lifetime.add(() => released.push('newer'));
        return 0;
      }),
    ).rejects.toThrow('the socket would not close');
    expect(released).toEqual(['newer', 'older']);
    expect(said).toEqual(['close undefined']);
    expect(log()).toMatch(/\[WARN\].*a run's resource failed to close: the socket would not close/);
  });
});
