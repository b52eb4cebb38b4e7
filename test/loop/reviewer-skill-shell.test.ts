/**
 * A skill's inline `!`-command cannot change the project through the reviewer, on every claude ccc
 * supports (docs/design/reviewer.md, "The read-only policy"): it is no tool call, so the guard's
 * PreToolUse hook never sees it, and the skill's `allowed-tools` lets it run when the review
 * message starts with the skill's `/name` (here: a SUPERVISOR.md that begins with it). The
 * reviewer's settings switch skill shell execution off, and deny `PreSkillShellCommand` where
 * claude has it (2.1.332).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc, SUPERVISOR_TEXT, writeSupervisorPrompt } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { projectSnapshot } from '../support/project-snapshot.js';

describe("a skill's shell command in the reviewer", () => {
  it('does not run: the project is unchanged and the review goes on', async ({ rig }) => {
    const { server, world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'verified' } } : { text: 'All done.' }));
    const skill = path.join(world.cwd, '.claude', 'skills', 'probe');
    fs.mkdirSync(skill, { recursive: true });
    fs.writeFileSync(
      path.join(skill, 'SKILL.md'),
      '---\nname: probe\ndescription: checks the project\nallowed-tools: Bash(touch:*), Bash(echo:*)\n---\nState: !`touch SKILL-WROTE; echo SKILL-RAN-4410`\n',
    );
    writeSupervisorPrompt(world, `/probe\n${SUPERVISOR_TEXT}`);
    const before = projectSnapshot(world.cwd);
    const run = await runCcc(world, ['--supervisor', '-p', 'write the parser']);
    expect(fs.existsSync(path.join(world.cwd, 'SKILL-WROTE'))).toBe(false);
    expect(projectSnapshot(world.cwd)).toEqual(before);
    // What the command would have printed never reached the model.
    for (const request of server.requests) expect(request.text).not.toContain('SKILL-RAN-4410');
    expect(run.code, run.stderr).toBe(0);
  });
});
