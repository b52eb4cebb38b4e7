/**
 * The installed hook at work: `ccc hook install`, then a plain `claude` session that ccc did not
 * start runs the supervisor loop end to end; `ccc supervisor-mode off` turns it off for a session.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc, SUPERVISOR_TEXT, writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

let server: ModelServer;
let world: ClaudeWorld;
afterEach(async () => {
  await server?.close();
  world?.cleanup();
});

const FEEDBACK = 'FEEDBACK-9: the README example is still missing';

async function setup() {
  server = await startModelServer((r) =>
    r.kind === 'review'
      ? r.index === 0
        ? { verdict: { completed: false, feedback: FEEDBACK } }
        : { verdict: { completed: true, feedback: 'done now' } }
      : { text: `agent answer ${r.index}` },
  );
  world = makeClaudeWorld({ modelUrl: server.url });
  writeSupervisorPrompt(world);
  const install = await runCcc(world, ['hook', 'install']);
  expect(install.code).toBe(0);
}

const plainClaude = (args: string[]) =>
  runProcess(claudeBin, ['-p', ...args, '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env, timeoutMs: 180_000 });

describe('the installed Stop hook in a session ccc did not start', () => {
  it('reviews at the stop, sends the feedback into the same session, and lets it stop once the reviewer confirms', async () => {
    await setup();
    const run = await plainClaude(['write the README example']);
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

  it('does not review a session whose supervision was turned off', async () => {
    await setup();
    const sessionId = randomUUID();
    const off = await runCcc(world, ['supervisor-mode', 'off', '--session', sessionId]);
    expect(off.code).toBe(0);
    const run = await plainClaude(['--session-id', sessionId, 'write the README example']);
    expect(run.code).toBe(0);
    expect(server.byKind('review')).toEqual([]);
    expect(server.byKind('agent')).toHaveLength(1);
    expect((await runCcc(world, ['supervisor-mode', '--session', sessionId])).stdout).toBe('off\n');
  });
});
