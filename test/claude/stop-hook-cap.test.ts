/**
 * Pins a surprise of the real claude (docs/design/claude-facts.md): Claude Code stops honouring Stop-hook
 * blocks after a number in a row (8 by default) unless CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises it.
 * This is why ccc sets the variable for every agent it starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';

describe('Claude Code caps consecutive Stop-hook blocks', () => {
  async function blocksHonoured(rig: Rig, env: NodeJS.ProcessEnv): Promise<number> {
    const server = await rig.server(() => ({ text: 'done' }));
    const world = rig.world({ server });
    const count = path.join(world.root, 'count');
    const hook = path.join(world.root, 'always-block.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\necho x >> '${count}'\necho '{"decision":"block","reason":"keep going"}'\n`, { mode: 0o755 });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
    const run = await runProcess(claudeBin, ['-p', 'go', '--settings', JSON.stringify(settings)], { cwd: world.cwd, env: { ...world.env, ...env } });
    expect(run.code).toBe(0);
    return server.byKind('agent').length - 1;
  }

  it('honours 8 blocks by default', async ({ rig }) => {
    expect(await blocksHonoured(rig, {})).toBe(8);
  });

  it('honours as many as CLAUDE_CODE_STOP_HOOK_BLOCK_CAP allows', async ({ rig }) => {
    expect(await blocksHonoured(rig, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '11' })).toBe(11);
  });
});
