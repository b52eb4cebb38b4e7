/**
 * Pins how Claude Code times a command hook whose `timeout` (seconds) is past what a Node timer
 * holds (2^31-1 ms, 2147483 s): the native build (2.x) lets the hook run, where a Node timer would
 * fire at once. A hook's timeout does bind (a short one cuts the hook off and its answer is lost).
 * ccc's own timers are Node's, so the schema bounds every limit a Stop hook's timeout is summed
 * from (src/loop/hook-timeout.ts, test/config/bounds.test.ts), whatever claude would accept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';

const MARK = 'HOOK-ANSWER-5519';
const TIMER_MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

describe("a Stop hook's timeout past a Node timer", () => {
  /** Runs `claude -p` (in a world of its own) whose Stop hook waits a moment, then blocks once; the agent requests, and whether the hook finished. */
  async function agentRequests(rig: Rig, timeoutSeconds: number): Promise<{ requests: number; hookFinished: boolean; agentTexts: string[] }> {
    const { server, world } = await rig.start((r) => ({ text: `agent answer ${r.index}` }), { supervisor: false });
    const hook = path.join(world.root, 'hook.sh');
    const done = path.join(world.root, 'done');
    // Blocks the first stop only; the wait is what a cut-off timer cannot let it finish.
    fs.writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\n[ -e '${done}' ] && exit 0\nsleep 2\n: > '${done}'\necho '{"decision":"block","reason":"${MARK}"}'\n`, {
      mode: 0o755,
    });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook, timeout: timeoutSeconds }] }] } };
    const result = await runProcess(claudeBin, ['-p', 'do it', '--settings', JSON.stringify(settings)], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(0);
    const agent = server.byKind('agent');
    return { requests: agent.length, hookFinished: fs.existsSync(done), agentTexts: agent.map((r) => r.text) };
  }

  it('a timeout shorter than the hook cuts it off: its block never reaches the model', async ({ rig }) => {
    expect(await agentRequests(rig, 1)).toMatchObject({ requests: 1, hookFinished: false });
  });

  it('past a Node timer (what ccc hook install once wrote for timeout_seconds 3000000) the hook runs and its block reaches the model', async ({ rig }) => {
    for (const timeout of [TIMER_MAX_SECONDS + 1, 3_018_061]) {
      const { agentTexts, ...run } = await agentRequests(rig, timeout);
      expect(run, String(timeout)).toEqual({ requests: 2, hookFinished: true });
      expect(agentTexts[1]).toContain(MARK);
    }
  });
});
