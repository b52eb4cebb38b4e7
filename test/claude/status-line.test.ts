/**
 * What the real claude gives a status line command in interactive mode, which ccc's interactive
 * agent spend (src/stop/status-line.ts) is read from: the session's running `cost.total_cost_usd`
 * on stdin, computed by claude from each answer's usage and its price table. The line runs after
 * the Stop hook (seen: each stop came before the line that counted its turn), so ccc reads it after
 * the review. If an upgrade changes this, this fails first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

describe("the real claude's status line input", () => {
  it('carries the running session cost, 0 before the first answer, growing with each answer', async ({ rig }) => {
    // 1M input tokens at the sonnet price ($3 per million) is $3 per answer.
    const server = await rig.server((r) => ({ text: `answer ${r.index}`, usage: { input_tokens: 1_000_000, output_tokens: 0 } }));
    const world = rig.world({ server });
    const lines = path.join(world.cwd, 'lines.jsonl');
    const atStop = path.join(world.cwd, 'at-stop.txt');
    const statusScript = path.join(world.cwd, 'status.sh');
    fs.writeFileSync(statusScript, `#!/bin/sh\n{ date +%s.%N; cat | tr -d '\\n'; echo; } >> '${lines}'\necho MY-STATUS-LINE\n`, { mode: 0o755 });
    const stopScript = path.join(world.cwd, 'stop.sh');
    // The Stop hook records how many status line inputs had arrived when it ran, and the last one.
    fs.writeFileSync(stopScript, `#!/bin/sh\ncat > /dev/null\n{ date +%s.%N; wc -l < '${lines}'; echo ---; } >> '${atStop}'\n`, { mode: 0o755 });
    const settings = {
      statusLine: { type: 'command', command: statusScript },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: stopScript }] }] },
    };
    const h = rig.pty(claudeBin, ['--settings', JSON.stringify(settings)], { cwd: world.cwd, env: world.env });
    try {
      await h.waitForScreen(/MY-STATUS-LINE/, 60_000);
      await h.type('first task');
      h.press('\r');
      await expect.poll(() => fs.existsSync(atStop) && fs.readFileSync(atStop, 'utf8'), { timeout: 60_000 }).toContain('---');
      await h.type('second task');
      h.press('\r');
      await expect.poll(() => fs.readFileSync(atStop, 'utf8').split('---').length, { timeout: 60_000 }).toBe(3);
      const inputs = () =>
        fs
          .readFileSync(lines, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { session_id: string; cost: { total_cost_usd: number } });
      // Two answers counted: the line's input carries claude's running cost for the session.
      await expect.poll(() => inputs().at(-1)!.cost.total_cost_usd, { timeout: 30_000 }).toBeGreaterThan(0);
      const costs = inputs().map((i) => i.cost.total_cost_usd);
      expect(costs[0]).toBe(0);
      expect([...costs].sort((a, b) => a - b)).toEqual(costs);
      expect(inputs().at(-1)!.session_id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      h.kill();
    }
  });
});
