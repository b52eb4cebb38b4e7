/**
 * The reviewer verifies with tools and changes nothing (issue: "The reviewer that verifies"), with
 * the real claude against the scripted model server: what its tools answered is what the model
 * server received.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { projectSnapshot as snapshot } from '../support/project-snapshot.js';
import { lastToolResults, reviewStep } from '../support/review-script.js';

describe('the reviewer verifies, read-only', () => {
  /** The reviewer tries each call in turn, then confirms; every tool result is kept for the assertions. */
  async function reviewerTrying(rig: Rig, callsIn: (cwd: string) => Array<{ name: string; input: Record<string, unknown> }>) {
    let calls: Array<{ name: string; input: Record<string, unknown> }> = [];
    const seen: Array<{ call: string; text: string; isError: boolean }> = [];
    const server = await rig.server((r: RecordedRequest): Reply => {
      if (r.kind !== 'review') return { text: 'All done, the tests pass.' };
      const step = reviewStep(r);
      if (step > 0) {
        const [result] = lastToolResults(r);
        seen.push({ call: JSON.stringify(calls[step - 1]!.input), text: result?.text ?? '', isError: result?.isError ?? false });
      }
      const next = calls[step];
      return next ? { toolUse: next } : { verdict: { completed: true, feedback: 'verified' } };
    });
    const world = rig.world({ server });
    calls = callsIn(world.cwd);
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'p', scripts: { test: 'node check.js' } }));
    fs.writeFileSync(path.join(world.cwd, 'check.js'), "console.log('TEST-OUTPUT-5521: 3 passing');\n");
    fs.writeFileSync(path.join(world.cwd, 'notes.txt'), 'original\n');
    return { world, seen };
  }

  const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'review step' } });
  const attempts = (cwd: string) => [
    bash('npm test'),
    bash('touch X'),
    bash('npm test && touch Y'),
    bash('npm test; touch Z'),
    { name: 'Edit', input: { file_path: path.join(cwd, 'notes.txt'), old_string: 'original', new_string: 'changed' } },
    { name: 'Write', input: { file_path: path.join(cwd, 'W.txt'), content: 'written' } },
    { name: 'Read', input: { file_path: path.join(cwd, 'notes.txt') } },
  ];

  function expectOnlyVerification(seen: Array<{ call: string; text: string; isError: boolean }>) {
    expect(seen).toHaveLength(7);
    // npm test ran, and the reviewer received its output.
    expect(seen[0]).toMatchObject({ isError: false });
    expect(seen[0]!.text).toContain('TEST-OUTPUT-5521: 3 passing');
    // Everything that changes the project was refused, with the reason.
    for (const refused of seen.slice(1, 6)) {
      expect([refused.call, refused.isError, refused.text]).toEqual([refused.call, true, expect.stringMatching(/is not allowed/)]);
    }
    // Reading works.
    expect(seen[6]).toMatchObject({ isError: false });
    expect(seen[6]!.text).toContain('original');
  }

  it('with no options: runs the npm test script and reads, refuses touch, chained commands, Edit and Write; the project is byte-identical', async ({ rig }) => {
    const { world, seen } = await reviewerTrying(rig, attempts);
    const before = snapshot(world.cwd);
    const run = await runCcc(world, ['--supervisor', '-p', 'make the tests pass']);
    expect(run.code).toBe(0);
    expectOnlyVerification(seen);
    expect(snapshot(world.cwd)).toEqual(before);
  });

  it("does not inherit the agent's --allowedTools Bash, nor settings.json's allow Bash", async ({ rig }) => {
    const { world, seen } = await reviewerTrying(rig, attempts);
    fs.writeFileSync(path.join(world.claudeDir, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash', 'Edit', 'Write'] } }));
    const before = snapshot(world.cwd);
    const run = await runCcc(world, ['--supervisor', '-p', 'make the tests pass', '--', '--allowedTools', 'Bash', 'Edit', 'Write']);
    expect(run.code).toBe(0);
    expectOnlyVerification(seen);
    expect(snapshot(world.cwd)).toEqual(before);
  });
});
