/**
 * runClaudePrint: one `claude -p` run, its stream-json parsed into what a checker needs. Unit
 * tests use the fake ChildRunner for odd streams; the rest runs the real claude against the
 * scripted model server (agent turn, structured review, a reviewer that answers in text only,
 * a hanging model, a missing binary).
 */
import { describe, expect, vi } from 'vitest';
import { parseVerdict } from '../../src/checkers/verdict-parser.js';
import { claudeNotFoundError, runClaudePrint } from '../../src/claude/claude-print.js';
import type { Frame } from '../../src/frames/frame.js';
import { runChild } from '../../src/process/child-process.js';
import { createFakeChildRunner } from '../../src/process/fake-child-runner.js';
import { liveGroupMembers } from '../support/process-tree.js';
import { it } from '../support/fixtures.js';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';

function recordingLogger() {
  const records: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => records.push({ level, message, fields });
  return { records, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const verdictSchema = JSON.stringify({
  type: 'object',
  properties: { completed: { type: 'boolean' }, feedback: { type: 'string' } },
  required: ['completed', 'feedback'],
});
const streamArgs = ['--output-format', 'stream-json', '--verbose'];

describe('runClaudePrint with a scripted child', () => {
  const base = { command: 'claude', args: ['-p', 'x'], cwd: '/tmp', env: {} };

  it('parses frames across chunk boundaries, WARNs on bad lines, sums the cost of every result frame', async () => {
    const stream =
      '{"type":"system","subtype":"init","session_id":"s-1"}\n' +
      'some stray progress text\n' +
      '{"type":"result","subtype":"success","result":"first","total_cost_usd":0.25,"session_id":"s-1"}\n' +
      '{"type":"assistant","message":{"content":[{"type":"te\n' +
      '{"type":"result","subtype":"success","result":"second","structured_output":{"completed":true,"feedback":"ok"},"total_cost_usd":0.5}\n';
    const cut = [stream.slice(0, 30), stream.slice(30, 31), stream.slice(31, 200), stream.slice(200)];
    const runner = createFakeChildRunner(() => ({ stdout: cut, stderr: 'note' }));
    const logger = recordingLogger();
    const seen: string[] = [];
    const result = await runClaudePrint({ ...base, runner, logger, onFrame: (f) => seen.push(f.type) });
    expect(result).toMatchObject({
      exitCode: 0,
      sessionId: 's-1',
      resultText: 'second',
      structuredOutput: { completed: true, feedback: 'ok' },
      costUsd: 0.75,
      frames: 3,
      stderrTail: 'note',
      timedOut: false,
    });
    expect(seen).toEqual(['system', 'result', 'result']);
    expect(logger.records.filter((r) => r.level === 'warn').map((r) => r.message)).toEqual([
      'Skipped a claude stdout line: not a JSON object',
      expect.stringContaining('Skipped a claude stdout line: invalid JSON'),
    ]);
    // The command at DEBUG, then every raw line at DEBUG (the log's debug lines, docs/design/files.md).
    const debug = logger.records.filter((r) => r.level === 'debug');
    expect(debug[0]).toMatchObject({ message: 'Running claude', fields: { command: 'claude', args: ['-p', 'x'] } });
    expect(debug.filter((r) => r.message === 'claude stdout line')).toHaveLength(5);
    // The caller's args go through untouched.
    expect(runner.calls[0]).toMatchObject({ command: 'claude', args: ['-p', 'x'], cwd: '/tmp' });
  });

  it('keeps going when an onFrame listener throws, and logs it', async () => {
    const runner = createFakeChildRunner(() => ({ stdout: '{"type":"a"}\n{"type":"result","result":"r"}\n' }));
    const logger = recordingLogger();
    const result = await runClaudePrint({
      ...base,
      runner,
      logger,
      onFrame: () => {
        throw new Error('listener bug');
      },
    });
    expect(result.resultText).toBe('r');
    expect(logger.records.filter((r) => r.level === 'error')).toHaveLength(2);
  });

  it('reports a run with no result frame without inventing one', async () => {
    const runner = createFakeChildRunner(() => ({ stdout: 'garbage only', exitCode: 1 }));
    const result = await runClaudePrint({ ...base, runner });
    expect(result).toMatchObject({ exitCode: 1, frames: 0, costUsd: 0 });
    expect(result.resultFrame).toBeUndefined();
    expect(result.sessionId).toBeUndefined();
  });

  it('passes timeout and abort through to the runner', async () => {
    const runner = createFakeChildRunner(() => ({ stdout: '{"type":"system","session_id":"s"}\n', hang: true }));
    expect(await runClaudePrint({ ...base, runner, timeoutMs: 20 })).toMatchObject({ timedOut: true, sessionId: 's', frames: 1 });
  });

  it('turns a spawn failure into CLAUDE_NOT_FOUND with a fix in the message', async () => {
    const spawnError = Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' });
    const result = await runClaudePrint({ ...base, runner: createFakeChildRunner(() => ({ spawnError })) });
    expect(result.spawnError).toBe(spawnError);
    const error = claudeNotFoundError('claude', spawnError);
    expect(error).toMatchObject({ code: 'CLAUDE_NOT_FOUND', exitCode: 2 });
    expect(error.message).toContain('CCC_CLAUDE');
  });
});

describe('runClaudePrint against the real claude', () => {
  async function agentSession(world: ClaudeWorld): Promise<string> {
    const agent = await runClaudePrint({ command: claudeBin, args: ['-p', 'please do the thing', ...streamArgs], cwd: world.cwd, env: world.env });
    expect(agent.exitCode, agent.stderrTail).toBe(0);
    return agent.sessionId!;
  }

  it('runs an agent turn: session id, result text, cost, frames in order', async ({ rig }) => {
    const server = await rig.server(() => ({ text: 'I did the thing' }));
    const world = rig.world({ server });
    const frames: Frame[] = [];
    const logger = recordingLogger();
    const result = await runClaudePrint({
      command: claudeBin,
      args: ['-p', 'please do the thing', ...streamArgs],
      cwd: world.cwd,
      env: world.env,
      logger,
      onFrame: (f) => frames.push(f),
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, resultText: 'I did the thing' });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.costUsd).toBeGreaterThan(0);
    expect(result.structuredOutput).toBeUndefined();
    expect(frames[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: result.sessionId });
    expect(frames[frames.length - 1]!.type).toBe('result');
    expect(result.frames).toBe(frames.length);
    expect(logger.records.filter((r) => r.level === 'warn')).toEqual([]);
    expect(server.byKind('agent')[0]!.lastUserText).toContain('please do the thing');
  });

  it('runs a forked review with --json-schema: structured output is the verdict', async ({ rig }) => {
    const server = await rig.server((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: 'add tests' } } : { text: 'I did the thing' }));
    const world = rig.world({ server });
    const sessionId = await agentSession(world);
    const review = await runClaudePrint({
      command: claudeBin,
      args: ['-p', '--fork-session', '--resume', sessionId, ...streamArgs, '--json-schema', verdictSchema, 'Review the work'],
      cwd: world.cwd,
      env: { ...world.env, CCC_SUPERVISOR_HOOK: '1' },
    });
    expect(review.exitCode, review.stderrTail).toBe(0);
    expect(review.structuredOutput).toEqual({ completed: false, feedback: 'add tests' });
    expect(review.sessionId).not.toBe(sessionId);
    expect(parseVerdict({ structuredOutput: review.structuredOutput, resultText: review.resultText, completionMarker: '[TASK_COMPLETED]' })).toEqual({
      completed: false,
      feedback: 'add tests',
    });
  });

  it('falls back to the result text when the reviewer answers in fenced JSON instead of calling the tool', async ({ rig }) => {
    const answer = 'I checked.\n```json\n{"completed": false, "feedback": "the README is missing"}\n```\nThat is all.';
    const server = await rig.server((r) => (r.kind === 'review' ? { text: answer } : { text: 'I did the thing' }));
    const world = rig.world({ server });
    const sessionId = await agentSession(world);
    const review = await runClaudePrint({
      command: claudeBin,
      args: ['-p', '--fork-session', '--resume', sessionId, ...streamArgs, '--json-schema', verdictSchema, 'Review the work'],
      cwd: world.cwd,
      env: world.env,
    });
    expect(review.exitCode, review.stderrTail).toBe(0);
    // claude 2.1.330 nags once ("[structured-output-enforce] You MUST call the StructuredOutput
    // tool"), then gives up and ends with subtype success, the text as result, no structured_output.
    expect(server.byKind('review').map((r) => r.lastUserText)).toEqual(['Review the work', expect.stringContaining('[structured-output-enforce]')]);
    expect(review.structuredOutput).toBeUndefined();
    expect(review.resultText).toBe(answer);
    expect(parseVerdict({ structuredOutput: review.structuredOutput, resultText: review.resultText, completionMarker: '[TASK_COMPLETED]' })).toEqual({
      completed: false,
      feedback: 'the README is missing',
    });
  });

  it('kills the whole claude process tree at the timeout when the model hangs', async ({ rig }) => {
    const server = await rig.server(() => ({ hang: true }));
    const world = rig.world({ server });
    // The timeout runs from the spawn: on a loaded machine claude may not reach the model within
    // it, and then nothing hangs yet. Each attempt's timeout kills the tree; the next doubles the time.
    for (let timeoutMs = 3000; ; timeoutMs *= 2) {
      let pgid: number | undefined;
      const asked = server.requests.length;
      const result = await runClaudePrint({
        command: claudeBin,
        args: ['-p', 'hello', ...streamArgs],
        cwd: world.cwd,
        env: world.env,
        timeoutMs,
        // The real runner, watched for the process group id.
        runner: { run: (options) => runChild(options).then((outcome) => ((pgid = outcome.pid), outcome)) },
      });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).not.toBe(0);
      await vi.waitFor(() => expect(liveGroupMembers(pgid!)).toEqual([]), { timeout: 15_000, interval: 100 });
      if (server.requests.length === asked && timeoutMs < 24_000) continue;
      // claude was waiting on the model: the init frame came before the hang.
      expect(server.requests.length).toBeGreaterThan(asked);
      expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      return;
    }
  }, 120_000);

  it('reports a missing claude binary as spawnError', async ({ rig }) => {
    const world = rig.world();
    const result = await runClaudePrint({ command: '/nonexistent/bin/claude', args: ['-p', 'x'], cwd: world.cwd, env: world.env });
    expect(result.spawnError).toMatchObject({ code: 'ENOENT' });
    expect(claudeNotFoundError('/nonexistent/bin/claude', result.spawnError!).code).toBe('CLAUDE_NOT_FOUND');
  });
});
