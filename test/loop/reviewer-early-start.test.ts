/**
 * The reviewer starts at the stop, while ccc counts the stop and reads the transcript, and gets
 * the rest of its message at the check. With the real claude: a started reviewer that the stop
 * does not need (the iteration limit) is killed before its stdin closes, so it sends no request
 * and leaves no process; behind a rule checker nothing starts early.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { processesIn, readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { supervisedPtyFixture } from '../support/supervised-pty.js';

/** The reviewer processes running in the world (a reviewer forks the agent's session). */
function reviewers(world: ClaudeWorld): number[] {
  return processesIn(world).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--fork-session');
    } catch {
      return false;
    }
  });
}

describe('the reviewer started at the stop', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  async function setUp() {
    server = await startModelServer((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: 'FEEDBACK-E1 not yet' } } : { text: 'done, I think' }));
    world = makeClaudeWorld({ modelUrl: server.url, env: { CCC_SUPERVISOR_LOG_LEVEL: 'debug' } });
    writeSupervisorPrompt(world);
  }

  it('is the review when one follows; is killed without a request when the limit ends the loop', async () => {
    await setUp();
    const run = await runCcc(world, ['--supervisor', '-p', 'do it', '--max-iterations', '1']);
    expect(run.code, run.stderr).toBe(3);
    // Two stops: the first reviewed by the reviewer started at the stop, the second at the limit.
    const log = readLog(world);
    expect(log.match(/calling the reviewer \(started at the stop\)/g)).toHaveLength(2);
    expect(log).not.toMatch(/attempt=\d+ calling the reviewer$/m);
    expect(log).toContain('iteration limit reached (1)');
    // The second reviewer never got its message: one review request only, and nothing left running.
    expect(server.byKind('review')).toHaveLength(1);
    expect(server.byKind('review')[0]!.lastUserText).toContain('You are reviewing the work above (review 1 of at most 1)');
    await expect.poll(() => processesIn(world), { timeout: 10_000 }).toEqual([]);
  });

  const fixture = supervisedPtyFixture();

  it('interactive: at the limit the reviewer started at the stop is killed and never sends a request, while ccc runs on', async () => {
    const launched = await fixture.launch((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: 'FEEDBACK-E2 not yet' } } : { text: 'done, I think' }), { args: ['--max-iterations', '1', '--log-level', 'debug'] });
    const { h } = launched;
    await h.type('do it');
    h.press('\r');
    await expect.poll(() => readLog(launched.world), { timeout: 60_000 }).toContain('iteration limit reached (1)');
    await expect.poll(() => reviewers(launched.world), { timeout: 10_000 }).toEqual([]);
    // One review (the first stop); the second stop's reviewer was stopped before its message was complete.
    expect(launched.server.byKind('review')).toHaveLength(1);
    expect(launched.server.byKind('agent')).toHaveLength(2);
    expect(readLog(launched.world).match(/calling the reviewer \(started at the stop\)/g)).toHaveLength(2);
  });

  it('behind a rule checker, starts only at its check', async () => {
    await setUp();
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { checkers: [{ use: 'rule', commands: ['true'] }, 'claude'] } }));
    const run = await runCcc(world, ['--supervisor', '-p', 'do it', '--max-iterations', '1']);
    expect(run.code, run.stderr).toBe(3);
    const log = readLog(world);
    expect(log).not.toContain('started at the stop');
    expect(log).toMatch(/attempt=1 calling the reviewer$/m);
    expect(server.byKind('review')).toHaveLength(1);
  });
});
