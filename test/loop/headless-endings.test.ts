/**
 * Every way a headless run ends says why, on stderr and in the log, once: a signal from outside
 * (CI cancelling, Ctrl-C, a hang-up) during the agent's turn or a review, a checker that fails, a
 * state file corrupted under the run. With the real claude against the scripted model server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { lastLogLine, processesIn } from '../support/ccc-run.js';

describe('how a headless run ends', () => {
  /** `ccc --supervisor -p`, with a handle to signal it. */
  function start(world: ClaudeWorld, args: string[] = []) {
    const child = spawn(process.execPath, [cccBin, '--supervisor', ...args, '-p', 'do it'], {
      cwd: world.cwd,
      env: world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
    return { child, done };
  }

  const sessions = (world: ClaudeWorld) => fs.readdirSync(path.join(world.claudeDir, 'ccc', 'sessions'));

  const cases = [
    { signal: 'SIGTERM', code: 143, during: 'agent' },
    { signal: 'SIGINT', code: 130, during: 'review' },
    { signal: 'SIGHUP', code: 129, during: 'agent' },
  ] as const;
  for (const { signal, code, during } of cases) {
    it(`${signal} during the ${during === 'agent' ? "agent's turn" : 'review'}: the reason on stderr and in the log, exit ${code}, no sessions/ record, nothing left running`, async ({
      rig,
    }) => {
      // The agent's first turn answers; the request that is to be interrupted never does.
      const { server, world } = await rig.start((r) =>
        r.kind === during && (during === 'review' || r.index === 1)
          ? { hang: true }
          : r.kind === 'review'
            ? { verdict: { completed: false, feedback: 'more' } }
            : { text: `answer ${r.index}` },
      );
      const run = start(world);
      await expect.poll(() => server.byKind(during).length >= (during === 'agent' ? 2 : 1), { timeout: 60_000 }).toBe(true);
      expect(sessions(world)).toHaveLength(1);
      run.child.kill(signal);
      const { code: exit, stderr } = await run.done;
      expect(exit).toBe(code);
      expect(stderr).toContain(`ccc: stopped: ${signal} received; the agent's turn and the review in progress were stopped`);
      expect(stderr.match(/ccc: stopped:/g)).toHaveLength(1); // the review it cancelled is not a second ending
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(lastLogLine(world)).toMatch(new RegExp(`\\[WARN\\] .*exit_code=${code} mode=headless .*run ended: interrupted: ${signal} received`));
      expect(sessions(world)).toEqual([]);
      await expect.poll(() => processesIn(world), { timeout: 10_000 }).toEqual([]);
    });
  }

  it('a run that completes logs how it ended', async ({ rig }) => {
    const { world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'ok' } } : { text: 'done' }));
    const { code } = await start(world).done;
    expect(code).toBe(0);
    expect(lastLogLine(world)).toMatch(/\[INFO\] .*exit_code=0 mode=headless reason=completed reviews=1 run ended: completed: /);
  });

  it('a checker failure is printed once (SUPERVISOR.md deleted under the run)', async ({ rig }) => {
    const { world } = await rig.start((r) => {
      if (r.kind === 'agent') fs.rmSync(path.join(world.cwd, 'SUPERVISOR.md'), { force: true });
      return r.kind === 'review' ? { verdict: { completed: true, feedback: 'ok' } } : { text: 'done' };
    });
    const { code, stderr } = await start(world).done;
    expect(code).toBe(4);
    expect(stderr.match(/No SUPERVISOR\.md/g)).toHaveLength(1);
    expect(lastLogLine(world)).toMatch(/exit_code=4 mode=headless reason=checker-failed .*run ended: checker-failed: /);
  });

  it('a state file corrupted under the run: a WARN on stderr, and the count goes on (review 2, not 1 again)', async ({ rig }) => {
    const { world } = await rig.start((r) => {
      if (r.kind === 'agent' && r.index === 1) {
        const dir = path.join(world.claudeDir, 'ccc');
        for (const f of fs.readdirSync(dir).filter((f) => /^supervisor-.*\.json$/.test(f))) fs.writeFileSync(path.join(dir, f), '{ torn');
      }
      if (r.kind === 'review')
        return r.index === 0 ? { verdict: { completed: false, feedback: 'add the tests' } } : { verdict: { completed: true, feedback: 'ok' } };
      return { text: `answer ${r.index}` };
    });
    const { code, stderr } = await start(world).done;
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /ccc: WARN: the session state .*supervisor-[\w-]+\.json was corrupt; it was moved to .*\.corrupt-\d+ and counting goes on from review 1\./,
    );
    expect(stderr).toContain('ccc: review 2/20');
    expect(stderr).not.toMatch(/review 1\/20[\s\S]*review 1\/20/);
  });
});
