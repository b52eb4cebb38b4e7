/**
 * The installed hook at work: `ccc hook install`, then a plain `claude` session that ccc did not
 * start runs the supervisor loop end to end; `ccc supervisor-mode off` turns it off for a session.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { runCcc, SUPERVISOR_TEXT } from '../support/ccc-run.js';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const FEEDBACK = 'FEEDBACK-9: the README example is still missing';

async function setup(rig: Rig) {
  const { server, world } = await rig.start((r) =>
    r.kind === 'review'
      ? r.index === 0
        ? { verdict: { completed: false, feedback: FEEDBACK } }
        : { verdict: { completed: true, feedback: 'done now' } }
      : { text: `agent answer ${r.index}` },
  );
  const install = await runCcc(world, ['hook', 'install']);
  expect(install.code).toBe(0);
  return { server, world };
}

const plainClaude = (world: ClaudeWorld, args: string[]) =>
  runProcess(claudeBin, ['-p', ...args, '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env, timeoutMs: 180_000 });

describe('the installed Stop hook in a session ccc did not start', () => {
  it('reviews at the stop, sends the feedback into the same session, and lets it stop once the reviewer confirms', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const run = await plainClaude(world, ['write the README example']);
    expect(run.code).toBe(0);
    const reviews = server.byKind('review');
    const agent = server.byKind('agent');
    expect(reviews).toHaveLength(2);
    expect(reviews[0]!.text).toContain(SUPERVISOR_TEXT);
    expect(agent).toHaveLength(2);
    expect(agent[1]!.lastUserText).toContain(FEEDBACK);
    expect(agent[1]!.text).toContain('write the README example');
    expect(jsonLines(run.stdout).find((f) => f.type === 'result')?.result).toBe('agent answer 1');
  });

  it('does not review a session whose supervision was turned off', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const sessionId = randomUUID();
    const off = await runCcc(world, ['supervisor-mode', 'off', '--session', sessionId]);
    expect(off.code).toBe(0);
    const run = await plainClaude(world, ['--session-id', sessionId, 'write the README example']);
    expect(run.code).toBe(0);
    expect(server.byKind('review')).toEqual([]);
    expect(server.byKind('agent')).toHaveLength(1);
    expect((await runCcc(world, ['supervisor-mode', '--session', sessionId])).stdout).toBe('off\n');
  });
});
