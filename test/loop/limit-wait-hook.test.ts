/**
 * The standalone Stop hook (`ccc hook install`, a claude session ccc did not start) meets the
 * model's limits in a review: the scripted server answers the reviewer's first requests with 429
 * (a retry-after of an hour, so claude gives up at once). The hook process waits on the schedule
 * (CCC_SUPERVISOR_LIMIT_RETRY_SECONDS=1: 1 s, then 2 s) and reviews the same stop again, its log
 * saying until when; the stop is decided by that review, not let through unreviewed. The agent's
 * own turn refused is no stop (claude fires only StopFailure, whose answer it ignores): the hook,
 * wired to StopFailure by hand, reviews nothing and says in the log that the turn is the user's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { expectWaitedTwice, refusingFirst, WAITING_LOGGED } from '../support/limit-replies.js';
import { runProcess } from '../support/run-process.js';

describe('waiting out the model limits in the standalone hook', () => {
  it('a review refused on a limit: the hook waits and reviews the same stop again', async ({ rig }) => {
    const server = await rig.server(refusingFirst('review', 2));
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
    const env = { ...world.env, CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' };
    const result = await runProcess(claudeBin, ['-p', 'do it', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env });
    expect(result.code, result.stderr).toBe(0);
    expectWaitedTwice(server.byKind('review'));
    expect(server.byKind('agent')).toHaveLength(1);
    const log = readLog(world);
    expect(log).toMatch(WAITING_LOGGED);
    expect(log).toMatch(/resuming the review/);
  }, 120_000);

  it("the agent's own turn refused (StopFailure, wired to the hook by hand): nothing reviewed, the log says the turn is the user's to resend", async ({
    rig,
  }) => {
    const server = await rig.server(refusingFirst('agent', 1));
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    const hook = [{ hooks: [{ type: 'command', command: `${process.execPath} ${cccBin} supervisor-hook` }] }];
    fs.writeFileSync(path.join(world.claudeDir, 'settings.json'), JSON.stringify({ hooks: { Stop: hook, StopFailure: hook } }));
    // In the TUI, as a user runs it: `claude -p` kills its StopFailure hook as it exits (test/claude/rate-limit.test.ts).
    const h = rig.pty(claudeBin, [], { cwd: world.cwd, env: world.env });
    try {
      await h.waitForScreen(/❯/, 60_000);
      await h.type('do it');
      h.press('\r');
      await h.waitForScreen(/Resend your message to try again/, 60_000);
      await expect
        .poll(() => (fs.existsSync(path.join(world.claudeDir, 'ccc')) ? readLog(world) : ''), { timeout: 30_000 })
        .toMatch(/\[WARN\] .*the agent was rate limited by the model's API: .*not reviewed, and not resumed: a hook cannot resume a turn/);
    } finally {
      h.kill();
    }
    expect(server.byKind('review')).toHaveLength(0);
    expect(server.byKind('agent')).toHaveLength(1);
  }, 120_000);
});
