/**
 * Pins the pinned claude's TUI permission mode (docs/design/claude-facts.md, "Auto mode in the
 * TUI"): it starts in auto mode, which sets allow rules such as `--allowedTools Bash` aside and
 * sends a call that needs its safety check to a check that runs on Anthropic's server. Behind
 * another `ANTHROPIC_BASE_URL` (here the scripted model server; for a user, a gateway) the check
 * cannot be reached: the call does not run, and the TUI waits for the user. With
 * `--permission-mode acceptEdits` the rule holds and the call runs. A command that needs no check
 * (a lone `touch`) runs in auto mode too, which is why this shows only with some commands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { freshReviewWorld } from '../support/fresh-review-project.js';
import { isToolResultTurn } from '../support/model-server.js';
import { lastToolResults } from '../support/review-script.js';

// One Bash call that writes files and commits: the kind auto mode sends to its safety check.
const { agent, project } = freshReviewWorld({ fixed: 'FIXED-7702', commit: 'COMMIT-7702', newFile: 'NEW-FILE-7702', oldNote: 'OLD-NOTE-7702' });

describe("the TUI's auto mode and --allowedTools Bash", () => {
  async function start(rig: Rig, args: string[]) {
    const server = await rig.server(agent);
    const world = rig.world({ server });
    project(world.cwd);
    const h = rig.pty(claudeBin, args, { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await h.type('fix add\r');
    return { server, world, h };
  }

  it('by default (auto mode) sets the rule aside: the call waits for the user, unrun, when the safety check cannot be reached', async ({ rig }) => {
    const { server, world, h } = await start(rig, ['--allowedTools', 'Bash']);
    const screen = await h.waitForScreen(/Auto mode can't check actions in this session/, 90_000);
    expect(screen).toMatch(/anything allowed by rules that auto mode set aside, such as\s+Bash\(\*\)/);
    expect(screen).toMatch(/Enter to stay in auto mode · shift\+Tab to leave for accept edits mode and stop · Esc to cancel/);
    expect(fs.existsSync(path.join(world.cwd, 'NOTES.md'))).toBe(false);
    expect(server.requests.filter(isToolResultTurn)).toEqual([]);
  }, 150_000);

  it('with --permission-mode acceptEdits honours it: the call runs', async ({ rig }) => {
    const { server, world, h } = await start(rig, ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash']);
    await h.waitForScreen(/Fixed add\./, 90_000);
    expect(h.screen()).toContain('accept edits on');
    expect(fs.readFileSync(path.join(world.cwd, 'NOTES.md'), 'utf8')).toContain('NEW-FILE-7702');
    expect(lastToolResults(server.requests.find(isToolResultTurn)!)).toEqual([{ text: '(Bash completed with no output)', isError: false }]);
  }, 150_000);
});
