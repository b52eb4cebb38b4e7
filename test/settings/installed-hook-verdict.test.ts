/**
 * What a user of plain `claude` with `ccc hook install` sees of each verdict: the hook answers with
 * a `systemMessage`, which claude shows in its TUI (`Stop says: …`) and keeps in the transcript (a
 * `hook_system_message` attachment), never sending it to the model. Each outcome with its sign and
 * what it rests on: ✗ not complete over a failing `npm test`, ✓ verified by the `npm test` that then
 * passed, ⚠ unverified when the reviewer ran nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import type { ModelServer, RecordedRequest, Reply } from '../support/model-server.js';
import { bashCall, reviewStep } from '../support/review-script.js';
import { jsonLines } from '../support/run-process.js';

/** The reviews so far, numbered by their first request. */
function reviewNumber(server: ModelServer, r: RecordedRequest): number {
  return server.byKind('review').filter((q) => reviewStep(q) === 0 && q.receivedAt <= r.receivedAt).length;
}

/** Plain claude in a pty, in a project whose `npm test` passes once `fixed` exists, with ccc's hook installed. */
async function plainClaude(rig: Rig, scenario: (r: RecordedRequest) => Reply) {
  const { server, world } = await rig.start(scenario);
  fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }));
  fs.writeFileSync(
    path.join(world.cwd, 'fixed.test.js'),
    "const test = require('node:test');\nconst fs = require('node:fs');\ntest('fixed', () => { if (!fs.existsSync('fixed')) throw new Error('not fixed yet'); });\n",
  );
  expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
  const pty = rig.pty(claudeBin, [], { cwd: world.cwd, env: world.env });
  await pty.waitForScreen(/❯/, 60_000);
  return { server, world, pty };
}

/** The `systemMessage`s of claude's transcript, in order. */
function shownInTranscript(world: ClaudeWorld): string[] {
  const projects = path.join(world.claudeDir, 'projects');
  const files = fs.readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  return files
    .flatMap((f) => jsonLines(fs.readFileSync(path.join(projects, f), 'utf8')))
    .map((l) => l.attachment as { type?: string; content?: string } | undefined)
    .filter((a) => a?.type === 'hook_system_message')
    .map((a) => a!.content!);
}

describe('the verdict a user of the installed hook sees', () => {
  it('✗ not complete with the failing run, then ✓ verified by the run that passed: on screen and in the transcript, never to the model', async ({ rig }) => {
    let fix!: () => void;
    const fixed = new Promise<void>((resolve) => (fix = resolve));
    const { server, world, pty } = await plainClaude(rig, (r) => {
      if (r.kind !== 'review') return r.index === 0 ? { text: 'Done.' } : { text: 'Fixed now.', until: fixed };
      const step = reviewStep(r);
      if (step === 0) return { toolUse: bashCall('npm test') };
      return reviewNumber(server, r) === 1
        ? { verdict: { completed: false, feedback: 'npm test fails: not fixed yet' } }
        : { verdict: { completed: true, feedback: 'npm test passes' } };
    });
    await pty.type('fix it\r');
    await pty.waitForScreen(
      /Stop says: ccc: ✗ review 1 \(claude\): not complete, feedback sent to the agent \(failed: npm test \(exit 1(: [^)]+)?\)\)/,
      90_000,
    );
    fs.writeFileSync(path.join(world.cwd, 'fixed'), '');
    fix();
    await pty.waitForScreen(/Stop says: ccc: ✓ review 2 \(claude\): complete, verified by: npm test \(1 test\)/, 90_000);
    await vi.waitFor(() =>
      expect(shownInTranscript(world)).toEqual([
        expect.stringMatching(/^ccc: ✗ review 1 \(claude\): not complete, feedback sent to the agent \(failed: npm test \(exit 1(: [^)]+)?\)\)$/),
        'ccc: ✓ review 2 (claude): complete, verified by: npm test (1 test)',
      ]),
    );
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('feedback sent to the agent');
  }, 240_000);

  it('⚠ unverified when the reviewer said complete without running anything', async ({ rig }) => {
    const { world, pty } = await plainClaude(rig, (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'looks done' } } : { text: 'Done.' }));
    await pty.type('fix it\r');
    await pty.waitForScreen(/Stop says: ccc: ⚠ review 1 \(claude\): complete, unverified/, 90_000);
    await vi.waitFor(() => expect(shownInTranscript(world)).toEqual(['ccc: ⚠ review 1 (claude): complete, unverified']));
  }, 180_000);
});
