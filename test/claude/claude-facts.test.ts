/**
 * Pins the behaviours of the real `claude` CLI that ccc relies on (docs/design/claude-facts.md), against
 * the scripted model server. If an upgrade of @anthropic-ai/claude-code changes one, this fails
 * first and says which.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin } from '../support/claude-env.js';
import { jsonLines, runProcess, type ProcessResult } from '../support/run-process.js';

const verdictSchema = JSON.stringify({
  type: 'object',
  properties: { completed: { type: 'boolean' }, feedback: { type: 'string' } },
  required: ['completed', 'feedback'],
});

// Each claude run here takes about 5 s beside two busy loops and two other real-claude files (load
// 12). One that takes 25 s hangs: it is killed then, inside the test's 60 s, so the failure shows
// how far it got (its frames and stderr) instead of a bare test timeout.
const HUNG_MS = 25_000;
const howFar = (run: ProcessResult) => `signal ${run.signal}; stderr: ${run.stderr.slice(-1000)}; stdout: ${run.stdout.slice(-2000)}`;

describe('the real claude CLI against the scripted model server', () => {
  it('runs -p with stream-json, fires the Stop hook with the documented fields, and forks a review with structured output', async ({ rig }) => {
    const server = await rig.server((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: 'add tests' } } : { text: 'I did the thing' }));
    const world = rig.world({ server });
    const hookOut = path.join(world.root, 'hook-input.json');
    const hookScript = path.join(world.root, 'hook.sh');
    fs.writeFileSync(hookScript, `#!/bin/sh\ncat > '${hookOut}'\n`, { mode: 0o755 });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hookScript }] }] } };

    const agent = await runProcess(
      claudeBin,
      ['-p', 'please do the thing', '--output-format', 'stream-json', '--verbose', '--settings', JSON.stringify(settings)],
      { cwd: world.cwd, env: world.env, timeoutMs: HUNG_MS },
    );
    expect(agent.code, howFar(agent)).toBe(0);
    const frames = jsonLines(agent.stdout);
    const result = frames.find((f) => f.type === 'result')!;
    expect(result.result).toBe('I did the thing');
    const sessionId = result.session_id as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.byKind('agent')[0]!.text).toContain('please do the thing');

    const hookInput = JSON.parse(fs.readFileSync(hookOut, 'utf8'));
    expect(hookInput).toMatchObject({
      session_id: sessionId,
      cwd: world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'I did the thing',
      background_tasks: [],
    });
    expect(fs.existsSync(hookInput.transcript_path)).toBe(true);

    const review = await runProcess(
      claudeBin,
      ['-p', '--fork-session', '--resume', sessionId, '--verbose', '--output-format', 'stream-json', '--json-schema', verdictSchema, 'Review the work'],
      { cwd: world.cwd, env: world.env, timeoutMs: HUNG_MS },
    );
    expect(review.code, howFar(review)).toBe(0);
    const reviewResult = jsonLines(review.stdout).find((f) => f.type === 'result')!;
    expect(reviewResult.structured_output).toEqual({ completed: false, feedback: 'add tests' });
    expect(reviewResult.session_id).not.toBe(sessionId);
    // The fork saw the whole conversation and the review prompt.
    const reviewRequest = server.byKind('review')[0]!;
    expect(reviewRequest.text).toContain('please do the thing');
    expect(reviewRequest.text).toContain('I did the thing');
    expect(reviewRequest.lastUserText).toContain('Review the work');
  });
});
