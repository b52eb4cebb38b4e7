/**
 * Pins Claude Code's `/goal` (docs/design/claude-facts.md, "/goal"), the session goal ccc supervises
 * beside (docs/design/stop-path.md, "A /goal beside ccc"): how it is set in print mode, what its
 * evaluator is asked and by which model, how its answer reaches the agent and the transcript,
 * and what happens when another Stop hook blocks at the same stop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { goalAnswer, type ModelServer, type RecordedRequest, type Reply } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';
import { sentHookFeedback } from '../support/claude-versions.js';

const CONDITION = 'the file done.txt exists';
const EVALUATOR_MODEL = 'goal-evaluator-model';

describe("Claude Code's /goal", () => {
  // The current test's, from its rig (which tears them down); the helpers below read them.
  let server: ModelServer;
  let world: ClaudeWorld;

  async function start(rig: Rig, goal: (request: RecordedRequest) => Reply, env: NodeJS.ProcessEnv = {}) {
    ({ server, world } = await rig.start((r) => (r.kind === 'goal' ? goal(r) : { text: `agent answer ${r.index}` }), {
      supervisor: false,
      env: { ANTHROPIC_DEFAULT_HAIKU_MODEL: EVALUATOR_MODEL, ...env },
    }));
  }

  const claude = (args: string[]) =>
    runProcess(claudeBin, ['--output-format', 'stream-json', '--verbose', ...args], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });

  function goalRecords(sessionId: string): Array<Record<string, unknown>> {
    const dir = path.join(world.claudeDir, 'projects');
    const file = fs
      .readdirSync(dir)
      .map((d) => path.join(dir, d, `${sessionId}.jsonl`))
      .find((f) => fs.existsSync(f))!;
    return jsonLines(fs.readFileSync(file, 'utf8'))
      .map((line) => line.attachment as Record<string, unknown> | undefined)
      .filter((a): a is Record<string, unknown> => a?.type === 'goal_status');
  }

  const sessionOf = (stdout: string) => jsonLines(stdout).find((f) => f.type === 'result')!.session_id as string;

  it('is set by -p "/goal …"; its evaluator is a tool-less request to the small model; "not met" sends the reason to the agent', async ({ rig }) => {
    await start(rig, (r) => goalAnswer(r.index === 0 ? { ok: false, reason: 'done.txt is missing' } : { ok: true, reason: 'done.txt was written' }));
    const run = await claude(['-p', `/goal ${CONDITION}`]);
    expect(run.code).toBe(0);

    const [first, second] = server.byKind('agent');
    expect(first!.lastUserText).toContain(`A session-scoped Stop hook is now active with condition: "${CONDITION}"`);
    const evaluator = server.byKind('goal');
    expect(evaluator).toHaveLength(2);
    expect(evaluator[0]!.body.model).toBe(EVALUATOR_MODEL);
    expect(evaluator[0]!.body.tools ?? []).toEqual([]);
    expect(Object.keys(evaluator[0]!.body.output_config?.format?.schema?.properties ?? {}).sort()).toEqual(['impossible', 'ok', 'reason']);
    // It sees the conversation and the Stop hook's input, as any Stop hook does.
    expect(evaluator[0]!.text).toContain('agent answer 0');
    expect(evaluator[0]!.lastUserText).toContain(`Condition: ${CONDITION}`);
    expect(evaluator[0]!.lastUserText).toMatch(/"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"agent answer 0"/);
    // Sent as any Stop hook's block is (test/claude/stop-hook-feedback.test.ts): inside a system reminder since 2.1.331.
    expect(second!.lastUserText).toBe(sentHookFeedback(`[${CONDITION}]: done.txt is missing`));
    expect(server.byKind('agent')).toHaveLength(2);

    expect(goalRecords(sessionOf(run.stdout))).toEqual([
      { type: 'goal_status', met: false, sentinel: true, condition: CONDITION },
      { type: 'goal_status', met: false, condition: CONDITION, reason: 'done.txt is missing' },
      expect.objectContaining({ type: 'goal_status', met: true, condition: CONDITION, reason: 'done.txt was written', iterations: 2 }),
    ]);
  });

  it('ends as impossible without sending the agent back', async ({ rig }) => {
    await start(rig, () => goalAnswer({ ok: false, impossible: true, reason: 'no disk' }));
    const run = await claude(['-p', `/goal ${CONDITION}`]);
    expect(run.code).toBe(0);
    expect(server.byKind('agent')).toHaveLength(1);
    expect(goalRecords(sessionOf(run.stdout)).at(-1)).toMatchObject({ met: false, failed: true, condition: CONDITION, reason: 'no disk' });
  });

  it('with another Stop hook blocking at the same stop, the agent gets both reasons in one request, in the order the hooks finished', async ({ rig }) => {
    // The evaluator's first answer waits until claude has seen the command hook finish: its
    // `hook_response` frame is on claude's stdout. Its process being gone is not enough: a loaded
    // claude can read the evaluator's answer before it reaps the hook, and then the goal finishes first.
    let stdout = '';
    const hookAnswered = () =>
      jsonLines(stdout).some((f) => f.subtype === 'hook_response' && f.hook_event === 'Stop' && String(f.stdout).includes('HOOK-REASON'));
    const hookFinished = () => vi.waitFor(() => expect(hookAnswered()).toBe(true), { timeout: 60_000, interval: 20 });
    await start(rig, (r) =>
      r.index === 0 ? { text: JSON.stringify({ ok: false, reason: 'GOAL-REASON' }), until: hookFinished() } : goalAnswer({ ok: true, reason: 'ok' }),
    );
    const once = path.join(world.root, 'blocked-once');
    const hook = path.join(world.root, 'block-once.sh');
    // Blocks the first stop only.
    fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\n[ -e '${once}' ] && exit 0\ntouch '${once}'\necho '{"decision":"block","reason":"HOOK-REASON"}'\n`, {
      mode: 0o755,
    });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
    const run = await runProcess(
      claudeBin,
      ['--output-format', 'stream-json', '--verbose', '--include-hook-events', '-p', `/goal ${CONDITION}`, '--settings', JSON.stringify(settings)],
      { cwd: world.cwd, env: world.env, timeoutMs: 90_000, onStdout: (soFar) => (stdout = soFar) },
    );
    expect(run.code).toBe(0);

    const agent = server.byKind('agent');
    expect(agent).toHaveLength(2);
    const texts = (role: string) =>
      agent[1]!.body.messages
        .slice(agent[0]!.body.messages.length)
        .filter((m) => m.role === role)
        .flatMap((m) => (m.content as Array<{ text?: string }>).map((b) => (b.text ?? '').trim()));
    expect(texts('user')).toEqual([sentHookFeedback('HOOK-REASON'), sentHookFeedback(`[${CONDITION}]: GOAL-REASON`)]);
    // A command hook's block is also told as a system message; the goal's is not.
    expect(texts('system')).toContain(`Stop hook blocking error from command: "${hook}": HOOK-REASON`);
    expect(texts('system').join('\n')).not.toContain('GOAL-REASON');
  });

  it('stays set across --resume; "/goal clear" ends it with a cleared record and no more checks', async ({ rig }) => {
    // Never met; a cap of 1 block ends the first run with the goal still set.
    await start(rig, () => goalAnswer({ ok: false, reason: 'still missing' }), { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' });
    const first = await claude(['-p', `/goal ${CONDITION}`]);
    expect(first.code).toBe(0);
    const sessionId = sessionOf(first.stdout);
    const checks = server.byKind('goal').length;

    const resumed = await claude(['-p', 'go on', '--resume', sessionId]);
    expect(resumed.code).toBe(0);
    expect(server.byKind('goal').length).toBeGreaterThan(checks);

    const afterResume = server.byKind('goal').length;
    const cleared = await claude(['-p', '/goal clear', '--resume', sessionId]);
    expect(cleared.code).toBe(0);
    expect(server.byKind('goal')).toHaveLength(afterResume);
    expect(goalRecords(sessionId).at(-1)).toEqual({ type: 'goal_status', met: true, sentinel: true, condition: CONDITION });
  });

  it("is inherited by a --fork-session of the session; a Stop hook's continue:false ends the fork's turn despite it, with an empty result", async ({ rig }) => {
    await start(rig, () => goalAnswer({ ok: false, reason: 'still missing' }), { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' });
    const first = await claude(['-p', `/goal ${CONDITION}`]);
    const sessionId = sessionOf(first.stdout);
    const checks = server.byKind('goal').length;
    const agents = server.byKind('agent').length;

    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: `echo '{"continue":false}'` }] }] } };
    const fork = await runProcess(
      claudeBin,
      [
        '-p',
        'review it',
        '--fork-session',
        '--resume',
        sessionId,
        '--no-session-persistence',
        '--output-format',
        'stream-json',
        '--verbose',
        '--settings',
        JSON.stringify(settings),
      ],
      { cwd: world.cwd, env: world.env, timeoutMs: 90_000 },
    );
    expect(fork.code).toBe(0);
    // The goal's evaluator ran at the fork's stop (inherited), but the fork answered once.
    expect(server.byKind('goal')).toHaveLength(checks + 1);
    expect(server.byKind('agent')).toHaveLength(agents + 1);
    const frames = jsonLines(fork.stdout);
    expect(frames.find((f) => f.type === 'result')).toMatchObject({ result: '', is_error: false, terminal_reason: 'stop_hook_prevented' });
    expect(JSON.stringify(frames.filter((f) => f.type === 'assistant').at(-1))).toContain(`agent answer ${agents}`);
  });
});
