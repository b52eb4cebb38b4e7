/**
 * Pins that the model-callable goal tools of claude 2.1.330 (`SetGoal`, `GetGoal`, `PauseGoal`)
 * are off in the offline test world (docs/design/claude-facts.md, "/goal"): the agent cannot set, read or
 * pause a goal, only the user's `/goal` can. A goal SetGoal set would be recorded as `/goal`'s is
 * (the same `goal_status` set record), so ccc reads both alike; this test fails first when an
 * upgrade turns the tools on, so that path gets its own test.
 */
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const GOAL_TOOLS = ['SetGoal', 'GetGoal', 'PauseGoal'];

describe("claude's goal tools", () => {
  it('are not offered to the model, in the TUI or in print mode, and a SetGoal call is refused', async ({ rig }) => {
    const server = await rig.server((r) =>
      r.kind === 'agent' && !isToolResultTurn(r) && r.index === 0
        ? { toolUse: { name: 'SetGoal', input: { condition: 'the file x exists', ask_user: false } } }
        : { text: `agent answer ${r.index}` },
    );
    const world = rig.world({ server });
    const h = rig.pty(claudeBin, [], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await h.type('set a goal');
    h.press('\r');
    await h.waitForScreen(/agent answer 1/, 60_000);
    const [first, second] = server.byKind('agent');
    expect((first!.body.tools ?? []).map((t) => t.name).filter((name) => GOAL_TOOLS.includes(name))).toEqual([]);
    expect(second!.lastUserText).toContain('No such tool available: SetGoal. SetGoal is disabled for this session');
    expect(server.byKind('goal')).toHaveLength(0);

    const print = await runProcess(claudeBin, ['-p', 'hello', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
    const init = jsonLines(print.stdout).find((f) => f.type === 'system' && f.subtype === 'init')!;
    for (const tool of GOAL_TOOLS) expect(init.tools).not.toContain(tool);
  }, 120_000);
});
