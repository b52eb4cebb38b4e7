/**
 * Interactive, in a real pty with the real claude: the user's Esc or Ctrl-C while a slow review
 * runs kills the reviewer (its whole process tree) and applies no verdict; the title says so.
 * Pins a behaviour of claude 2.1.330 this relies on: Esc and Ctrl-C kill a running Stop hook, so
 * ccc sees the hook hang up on its stop channel.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { ClaudeWorld } from '../support/claude-env.js';
import { processesIn, readLog } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';

/** Live claude processes of this test's world whose command line has every one of `words` (the reviewer: `--fork-session`). */
function processesWith(world: ClaudeWorld, ...words: string[]): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      // claude itself, not the ccc-lifeline launcher whose arguments name it
      const isClaude = path.basename(cmdline[0] ?? '') === 'claude';
      if (isClaude && words.every((w) => cmdline.includes(w)) && fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(world.root)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

describe('cancelling a review (interactive)', () => {
  /** A session whose review hangs, once the reviewer is running: its session id. */
  async function hangingReview(rig: Rig) {
    const session = await rig.launch((r) => (r.kind === 'review' ? { hang: true } : { text: `agent answer ${r.index}` }));
    await session.h.type('build the thing');
    session.h.press('\r');
    await expect.poll(() => session.server.byKind('review').length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => processesWith(session.world, '--fork-session').length, { timeout: 10_000 }).toBe(1);
    const reviewer = processesWith(session.world, '--fork-session')[0]!;
    const sessionId = /--resume\0([0-9a-f-]{36})/.exec(fs.readFileSync(`/proc/${reviewer}/cmdline`, 'utf8'))?.[1];
    expect(sessionId).toBeDefined();
    return { ...session, sessionId: sessionId! };
  }

  it('a review still running when the agent exits is killed and applies no verdict', async ({ rig }) => {
    const { h, world } = await hangingReview(rig);
    // The agent: the claude that ccc started with its own --session-id (the launcher and the CLI it runs).
    const agent = processesWith(world, '--session-id');
    expect(agent.length).toBeGreaterThan(0);
    for (const pid of agent) process.kill(pid, 'SIGKILL');
    expect((await h.exited).exitCode).toBe(137);
    await expect.poll(() => processesWith(world, '--fork-session'), { timeout: 10_000 }).toEqual([]);
    const log = readLog(world);
    expect(log).toMatch(/review cancelled/);
    expect(log).not.toMatch(/review finished/);
    await expect.poll(() => processesIn(world), { timeout: 10_000 }).toEqual([]);
  });

  for (const [name, key] of [
    ['Esc', '\x1b'],
    ['Ctrl-C', '\x03'],
  ] as const) {
    it(`${name} during a slow review kills the reviewer and applies no verdict`, async ({ rig }) => {
      const { h, world, server, sessionId } = await hangingReview(rig);
      h.press(key);
      await expect.poll(() => processesWith(world, '--fork-session', sessionId), { timeout: 10_000 }).toEqual([]);
      await expect
        .poll(() => readLog(world), { timeout: 10_000 })
        .toMatch(
          /\[INFO\] \[supervisor\] session_id=\S+ iteration=1\/20 max_iterations=20 duration=\d+ms review cancelled \(the Stop hook was cancelled\); no verdict applied, stop allowed/,
        );
      await h.waitForOutput(/\x1b\]0;ccc: review cancelled\x07/, 10_000);
      const log = readLog(world);
      expect(log).not.toMatch(/review finished/);
      expect(log).not.toMatch(/checker failed/);
      const state = JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', `supervisor-${sessionId}.json`), 'utf8'));
      expect(state.last_verdict).toBeUndefined();
      // No feedback reached the agent: it was asked once, by the user.
      expect(server.byKind('agent').filter((r) => !r.lastUserText.includes('build the thing'))).toEqual([]);
    });
  }
});
