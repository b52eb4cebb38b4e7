/**
 * The status line's cost in a resumed interactive session (`claude --resume <id>`), which ccc's
 * interactive cost cap reads (src/stop/status-line.ts). Pinned on 2.1.330: it starts from 0, the
 * cost of this process only, not the session's: the cap counts what this run spent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

describe("the real claude's status line cost in a resumed session", () => {
  it("counts this process's answers only", async ({ rig }) => {
    const server = await rig.server(() => ({ text: 'done', usage: { input_tokens: 100_000, output_tokens: 0 } }));
    const world = rig.world({ server });
    const lines = path.join(world.cwd, 'lines.jsonl');
    const status = path.join(world.cwd, 'status.sh');
    fs.writeFileSync(status, `#!/bin/sh\n{ cat | tr -d '\\n'; echo; } >> '${lines}'\necho MY-STATUS-LINE\n`, { mode: 0o755 });
    const settings = ['--settings', JSON.stringify({ statusLine: { type: 'command', command: status } })];
    const inputs = () =>
      fs
        .readFileSync(lines, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { session_id: string; cost: { total_cost_usd: number } });
    const first = rig.pty(claudeBin, settings, { cwd: world.cwd, env: world.env });
    let id: string;
    let spent: number;
    try {
      await first.waitForScreen(/MY-STATUS-LINE/, 60_000);
      await first.type('first task');
      first.press('\r');
      await expect.poll(() => inputs().at(-1)!.cost.total_cost_usd, { timeout: 60_000 }).toBeGreaterThan(0);
      ({
        session_id: id,
        cost: { total_cost_usd: spent },
      } = inputs().at(-1)!);
    } finally {
      first.kill();
    }
    fs.writeFileSync(lines, '');
    const resumed = rig.pty(claudeBin, [...settings, '--resume', id], { cwd: world.cwd, env: world.env });
    try {
      await resumed.waitForScreen(/MY-STATUS-LINE/, 60_000);
      await expect.poll(() => fs.readFileSync(lines, 'utf8').trim().length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(inputs().at(-1)!.cost.total_cost_usd).toBe(0);
      await resumed.type('second task');
      resumed.press('\r');
      await expect.poll(() => inputs().at(-1)!.cost.total_cost_usd, { timeout: 60_000 }).toBeGreaterThan(0);
      expect(inputs().at(-1)!.cost.total_cost_usd).toBeCloseTo(spent, 9);
    } finally {
      resumed.kill();
    }
  }, 180_000);
});
