/**
 * The standalone Stop hook (`ccc hook install`, a claude session ccc did not start) meets the
 * model's limits in a review: the scripted server answers the reviewer's first requests with 429
 * (a retry-after of an hour, so claude gives up at once). The hook process waits on the schedule
 * (CCC_SUPERVISOR_LIMIT_RETRY_SECONDS=1: 1 s, then 2 s) and reviews the same stop again, its log
 * saying until when; the stop is decided by that review, not let through unreviewed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { expectWaitedTwice, refusingFirst, WAITING_LOGGED } from '../support/limit-replies.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

describe('waiting out the model limits in the standalone hook', () => {
  let server: ModelServer | undefined;
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  it('a review refused on a limit: the hook waits and reviews the same stop again', async () => {
    server = await startModelServer(refusingFirst('review', 2));
    world = makeClaudeWorld({ modelUrl: server.url });
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
});
