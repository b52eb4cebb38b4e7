/**
 * Checkers see the agent's frames in interactive mode too (the transcript tail follows the session),
 * with the real claude in a real pty: at the first review, after relaunching with `--continue`
 * (a session ccc did not name), and after `/clear` (a new transcript file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import type { PtyHarness } from '../support/pty-harness.js';

/** A checker plugin that records what it saw at each review. */
const PROBE = `import fs from 'node:fs';
let onFrame = 0;
export default {
  name: 'frames-probe',
  onFrame() { onFrame += 1; },
  check(ctx) {
    const ids = [...new Set(ctx.frames.map((f) => f.sessionId ?? f.session_id).filter(Boolean))];
    fs.appendFileSync(${JSON.stringify('PROBE_FILE')}, JSON.stringify({ session: ctx.sessionId, frames: ctx.frames.length, onFrame, ids }) + '\\n');
    return { completed: true, feedback: 'seen' };
  },
};
`;

interface Probe {
  session: string;
  frames: number;
  onFrame: number;
  ids: string[];
}

describe('frames in interactive reviews', () => {
  let world: ClaudeWorld;
  let h: PtyHarness | undefined;

  const probes = (): Probe[] => {
    const file = path.join(world.root, 'probe.jsonl');
    return fs.existsSync(file)
      ? fs
          .readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Probe)
      : [];
  };

  async function ask(task: string, reviews: number) {
    await h!.type(task);
    h!.press('\r');
    await expect.poll(() => probes().length, { timeout: 60_000 }).toBe(reviews);
    await h!.waitForScreen(/❯\s*\n/, 20_000);
  }

  async function exit() {
    await h!.type('/exit');
    await h!.waitForScreen(/❯ \/exit/, 10_000);
    h!.press('\r');
    await h!.exited;
  }

  it('are non-zero at the first review, after --continue, and come from the new transcript after /clear', async ({ rig }) => {
    const session = await rig.launch((r) => ({ text: `agent answer ${r.index}` }), {
      args: ['--checker', './frames-probe.mjs'],
      prepare: (w) => fs.writeFileSync(path.join(w.cwd, 'frames-probe.mjs'), PROBE.replace('PROBE_FILE', path.join(w.root, 'probe.jsonl'))),
    });
    world = session.world;
    h = session.h;
    await ask('first task', 1);
    const [first] = probes();
    expect(first!.frames).toBeGreaterThan(0);
    expect(first!.onFrame).toBeGreaterThan(0);
    expect(first!.ids).toEqual([first!.session]);
    await exit();

    h = rig.pty(process.execPath, [cccBin, '--supervisor', '--checker', './frames-probe.mjs', '--continue'], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await ask('second task', 2);
    const second = probes()[1]!;
    expect(second.session).toBe(first!.session);
    expect(second.frames).toBeGreaterThan(first!.frames);
    expect(second.onFrame).toBeGreaterThan(0);

    await h.type('/clear');
    await h.waitForScreen(/❯ \/clear/, 10_000);
    h.press('\r');
    await h.waitForScreen(/❯\s*\n/, 20_000);
    await ask('third task', 3);
    const third = probes()[2]!;
    expect(third.session).not.toBe(first!.session);
    expect(third.frames).toBeGreaterThan(0);
    expect(third.ids).toEqual([third.session]);
    expect(third.onFrame).toBeGreaterThan(second.onFrame);
  }, 240_000);
});
