/**
 * Pins a surprise of the real claude (docs/design/claude-facts.md): Claude Code stops honouring Stop-hook
 * blocks after a number in a row (8 by default) unless CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises it.
 * This is why ccc sets the variable for every agent it starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

describe('Claude Code caps consecutive Stop-hook blocks', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  async function blocksHonoured(env: NodeJS.ProcessEnv): Promise<number> {
    server = await startModelServer(() => ({ text: 'done' }));
    world = makeClaudeWorld({ modelUrl: server.url });
    const count = path.join(world.root, 'count');
    const hook = path.join(world.root, 'always-block.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\necho x >> '${count}'\necho '{"decision":"block","reason":"keep going"}'\n`, { mode: 0o755 });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
    const run = await runProcess(claudeBin, ['-p', 'go', '--settings', JSON.stringify(settings)], { cwd: world.cwd, env: { ...world.env, ...env } });
    expect(run.code).toBe(0);
    return server.byKind('agent').length - 1;
  }

  it('honours 8 blocks by default', async () => {
    expect(await blocksHonoured({})).toBe(8);
  });

  it('honours as many as CLAUDE_CODE_STOP_HOOK_BLOCK_CAP allows', async () => {
    expect(await blocksHonoured({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '11' })).toBe(11);
  });
});
