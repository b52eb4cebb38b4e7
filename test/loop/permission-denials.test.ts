/**
 * Headless without permissions: claude refuses the agent's Write (nobody can approve it in print
 * mode) and lists it in the result frame's `permission_denials`. ccc names the tool and how to
 * grant it on stderr and in the log, and tells the agent the refusal was the permission settings.
 * Interactive: a deny rule refuses the agent's Bash in the TUI; ccc reads the refusal from the
 * transcript and names it the same way (the TUI's system message, the title, the log, the feedback).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { isToolResultTurn, userTexts, type RecordedRequest, type Reply } from '../support/model-server.js';

describe('denied tools are named', () => {
  it('headless, a denied Write: stderr and the log name it and how to grant it; the feedback says the permission settings denied it; denied twice in a row ends the run, exit 2', async ({
    rig,
  }) => {
    let target = '';
    const server = await rig.server((r: RecordedRequest): Reply => {
      if (r.kind === 'review') return { verdict: { completed: false, feedback: 'notes.txt was not written' } };
      const last = r.body.messages[r.body.messages.length - 1];
      const afterTool = Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result');
      return afterTool ? { text: 'I could not write the file.' } : { toolUse: { name: 'Write', input: { file_path: target, content: 'notes' } } };
    });
    const world = rig.world({ server });
    target = path.join(world.cwd, 'notes.txt');
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '--max-iterations', '10', '-p', 'write notes.txt']);
    expect(fs.existsSync(target)).toBe(false);
    // Denied twice in a row: the run stops for the grant (exit 2), not after rounds that end in "no progress".
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/stopped: the agent's Write calls were denied in 2 turns in a row/);
    expect(run.stderr).not.toMatch(/no progress/);
    expect(server.byKind('review')).toHaveLength(2);
    expect(readLog(world)).toMatch(/headless run ended.*permission-denied|reason=permission-denied|"reason":"permission-denied"/);
    expect(run.stderr).toContain("claude refused the agent's Write calls");
    expect(run.stderr).toContain('--allowedTools');
    expect(readLog(world)).toContain("claude refused the agent's Write calls");
    const fed = server.byKind('agent').flatMap((r) => userTexts(r.body));
    expect(fed.some((t) => t.includes('notes.txt was not written') && t.includes("denied by the user's permission settings"))).toBe(true);
  }, 240_000);
});

describe('denied tools are named, interactive', () => {
  it("a deny rule refuses the agent's Bash: the TUI and the log name it and the rule; the feedback says the settings denied it; denied in 2 turns in a row, supervision stops for the grant", async ({
    rig,
  }) => {
    const { server, world, h } = await rig.launch(
      (r: RecordedRequest): Reply => {
        if (r.kind === 'review') return { verdict: { completed: false, feedback: 'old.txt is still there' } };
        return isToolResultTurn(r)
          ? { text: 'I could not remove old.txt.' }
          : { toolUse: { name: 'Bash', input: { command: 'rm -f old.txt', description: 'remove' } } };
      },
      {
        args: ['--max-iterations', '10'],
        prepare: (w) => {
          fs.writeFileSync(path.join(w.cwd, 'old.txt'), 'old');
          fs.mkdirSync(path.join(w.cwd, '.claude'), { recursive: true });
          fs.writeFileSync(path.join(w.cwd, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
        },
      },
    );
    await h.type('remove old.txt\r');
    const flat = () => h.screen().replace(/\s+/g, ' ');
    await expect.poll(flat, { timeout: 180_000, interval: 200 }).toContain("stopped supervising: the agent's Bash calls were denied in 2 turns in a row");
    expect(fs.existsSync(path.join(world.cwd, 'old.txt'))).toBe(true);
    // Two reviews, then the stop is let through for the grant: no third round, no "no progress".
    expect(server.byKind('review')).toHaveLength(2);
    const screen = flat();
    expect(screen).toContain("ccc: claude refused the agent's Bash calls: the permission settings deny them");
    expect(screen).toContain('remove or narrow it');
    expect(screen).not.toMatch(/no progress/);
    const log = readLog(world);
    expect(log).toContain(
      "claude refused the agent's Bash calls: the permission settings deny them. A permissions.deny rule in .claude/settings.json matches them",
    );
    expect(log).toMatch(/stopped supervising: the agent's Bash calls were denied in 2 turns in a row/);
    // The agent's second turn was told the settings refused it, not only that the work is unfinished.
    const fed = server.byKind('agent').flatMap((r) => userTexts(r.body));
    expect(fed.some((t) => t.includes('old.txt is still there') && t.includes("denied by the user's permission settings"))).toBe(true);
  }, 240_000);

  it('a new task typed after a task that ended with a denied call counts its denials afresh, as the iteration count does', async ({ rig }) => {
    let reviews = 0;
    const { server, world, h } = await rig.launch(
      (r: RecordedRequest): Reply => {
        // The first task is judged complete despite its refused call; the second never is.
        if (r.kind === 'review')
          return ++reviews === 1
            ? { verdict: { completed: true, feedback: 'fine as it is' } }
            : { verdict: { completed: false, feedback: 'old.txt is still there' } };
        return isToolResultTurn(r)
          ? { text: 'I could not remove old.txt.' }
          : { toolUse: { name: 'Bash', input: { command: 'rm -f old.txt', description: 'remove' } } };
      },
      {
        args: ['--max-iterations', '10'],
        prepare: (w) => {
          fs.writeFileSync(path.join(w.cwd, 'old.txt'), 'old');
          fs.mkdirSync(path.join(w.cwd, '.claude'), { recursive: true });
          fs.writeFileSync(path.join(w.cwd, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
        },
      },
    );
    const flat = () => h.screen().replace(/\s+/g, ' ');
    await h.type('remove old.txt\r');
    await expect.poll(() => server.byKind('review').length, { timeout: 180_000, interval: 200 }).toBe(1);
    await expect.poll(flat, { timeout: 60_000, interval: 200 }).toContain('review 1 (claude): complete, unverified');
    await h.type('remove old.txt for good\r');
    await expect.poll(flat, { timeout: 180_000, interval: 200 }).toContain("stopped supervising: the agent's Bash calls were denied in 2 turns in a row");
    // The new task's first refused turn was its first, not the last task's second: one round of
    // feedback with the note, then the stop for the grant at its second review.
    expect(server.byKind('review')).toHaveLength(3);
    const fed = server.byKind('agent').flatMap((r) => userTexts(r.body));
    expect(fed.some((t) => t.includes('old.txt is still there') && t.includes("denied by the user's permission settings"))).toBe(true);
    expect(readLog(world)).toMatch(/stopped supervising: the agent's Bash calls were denied in 2 turns in a row/);
  }, 300_000);
});
