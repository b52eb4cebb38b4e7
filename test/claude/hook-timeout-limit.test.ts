/**
 * Pins how Claude Code times a command hook whose `timeout` (seconds) is past what a Node timer
 * holds (2^31-1 ms, 2147483 s): the native build (2.x) lets the hook run, where a Node timer would
 * fire at once. A hook's timeout does bind (a short one cuts the hook off and its answer is lost).
 * ccc's own timers are Node's, so the schema bounds every limit a Stop hook's timeout is summed
 * from (src/loop/hook-timeout.ts, test/config/bounds.test.ts), whatever claude would accept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

const MARK = 'HOOK-ANSWER-5519';
const TIMER_MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

describe("a Stop hook's timeout past a Node timer", () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  /** Runs `claude -p` whose Stop hook waits a moment, then blocks once; returns how many agent requests there were. */
  async function agentRequests(timeoutSeconds: number): Promise<{ requests: number; hookFinished: boolean }> {
    server = await startModelServer((r) => ({ text: `agent answer ${r.index}` }));
    world = makeClaudeWorld({ modelUrl: server.url });
    const hook = path.join(world.root, 'hook.sh');
    const done = path.join(world.root, 'done');
    // Blocks the first stop only; the wait is what a cut-off timer cannot let it finish.
    fs.writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\n[ -e '${done}' ] && exit 0\nsleep 2\n: > '${done}'\necho '{"decision":"block","reason":"${MARK}"}'\n`, {
      mode: 0o755,
    });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook, timeout: timeoutSeconds }] }] } };
    const result = await runProcess(claudeBin, ['-p', 'do it', '--settings', JSON.stringify(settings)], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(0);
    return { requests: server.byKind('agent').length, hookFinished: fs.existsSync(done) };
  }

  it('a timeout shorter than the hook cuts it off: its block never reaches the model', async () => {
    expect(await agentRequests(1)).toEqual({ requests: 1, hookFinished: false });
  });

  it('past a Node timer (what ccc hook install once wrote for timeout_seconds 3000000) the hook runs and its block reaches the model', async () => {
    for (const timeout of [TIMER_MAX_SECONDS + 1, 3_018_061]) {
      expect(await agentRequests(timeout), String(timeout)).toEqual({ requests: 2, hookFinished: true });
      expect(server.byKind('agent')[1]!.text).toContain(MARK);
      await server.close();
      world.cleanup();
    }
  });
});
