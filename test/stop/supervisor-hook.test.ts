/**
 * `ccc supervisor-hook` on its own (the `ccc hook install` case), with real sessions of the real
 * claude: decisions, the recursion guard, malformed input, limits and concurrent hooks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect } from 'vitest';
import { blockReason } from '../../src/stop/block-reason.js';
import { cccBin, claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { lastLogLine, readLog, runCcc } from '../support/ccc-run.js';
import { it, type Fixtures, type Rig } from '../support/fixtures.js';
import type { ModelServer, Reply } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

describe('ccc supervisor-hook', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  // Every test here starts from the same server and world, so the hook helpers below read them; the rig tears them down.
  beforeEach<Fixtures>(async ({ rig }) => {
    ({ server, world } = await rig.start((r) =>
      r.kind === 'review' ? { verdict: { completed: false, feedback: `review #${r.index}: add tests` } } : { text: 'I am done' },
    ));
  });

  async function realSession(): Promise<Record<string, unknown>> {
    const run = await runProcess(claudeBin, ['-p', 'write the parser', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
    const sessionId = jsonLines(run.stdout).find((f) => f.type === 'result')!.session_id as string;
    const transcript = path.join(world.claudeDir, 'projects', world.cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
    expect(fs.existsSync(transcript)).toBe(true);
    return {
      session_id: sessionId,
      transcript_path: transcript,
      cwd: world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'I am done',
      background_tasks: [],
    };
  }

  const hook = (input: unknown, env: NodeJS.ProcessEnv = {}) =>
    runCcc(world, ['supervisor-hook'], { input: typeof input === 'string' ? input : JSON.stringify(input), env });
  const state = (id: unknown) => JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', `supervisor-${String(id)}.json`), 'utf8'));

  it('blocks with the reviewer feedback, which the reviewer produced from the user prompt', async () => {
    const input = await realSession();
    const run = await hook(input);
    expect(run.code).toBe(0);
    // The reason is the agent's; the user sees the verdict (claude shows `systemMessage` in the TUI, never to the model).
    expect(JSON.parse(run.stdout)).toEqual({
      decision: 'block',
      reason: blockReason('review #0: add tests'),
      systemMessage: 'ccc: ✗ review 1 (claude): not complete, feedback sent to the agent',
    });
    const review = server.byKind('review')[0]!;
    expect(review.text).toContain('REVIEW-RULES-7731');
    expect(review.text).toContain('1. write the parser');
    expect(readLog(world, input.session_id as string)).toMatch(/\[INFO\] \[supervisor\] .*session_id=.*supervisor-hook started/);
    // Each hook call's end is the log's last line.
    expect(lastLogLine(world, input.session_id as string)).toMatch(/exit_code=0 mode=hook decision=block .*run ended: not complete \(review 1\)/);
  });

  /** The hook as a claude runs it (through sh), from a claude stand-in that this test's process starts: the test plays the ccc. */
  const hookUnderClaude = (input: unknown, env: NodeJS.ProcessEnv) => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cccBin)} supervisor-hook`;
    const claude = `const r = require('node:child_process').spawnSync('/bin/sh', ['-c', ${JSON.stringify(command)}], { input: process.env.HOOK_INPUT, encoding: 'utf8' }); process.stdout.write(r.stdout); process.stderr.write(r.stderr);`;
    return runProcess(process.execPath, ['-e', claude], { cwd: world.cwd, env: { ...world.env, ...env, HOOK_INPUT: JSON.stringify(input) } });
  };

  it("allows the stop without any review for the reviewer's own claude: CCC_SUPERVISOR_HOOK names the ccc that started it (never recurses)", async () => {
    const run = await hookUnderClaude({ session_id: 'abc', cwd: world.cwd }, { CCC_SUPERVISOR_HOOK: String(process.pid) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  for (const [name, value, what] of [
    ['CCC_SUPERVISOR_HOOK', '1', 'as an export leaves it'],
    ['CCC_SUPERVISOR_HOOK', () => String(process.pid), "a live process's pid, but not this claude's starter"],
    ['CCC_SUPERVISED', () => String(process.pid), "a live process's pid, but not this claude's starter"],
  ] as const) {
    it(`a stray ${name} (${what}) switches nothing off: the stop is reviewed, and the hook says so`, async () => {
      const input = await realSession();
      // Run directly by the test (no claude between): the ccc the value names did not start this hook's claude.
      const run = await hook(input, { [name]: typeof value === 'string' ? value : value() });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'block', reason: blockReason('review #0: add tests') });
      expect(run.stderr).toContain(`ccc supervisor-hook: ${name}=`);
      expect(run.stderr).toContain(
        'is set, but this claude was not started by that ccc (a copy inherited from another process); ignored: the stop is reviewed here',
      );
      expect(server.byKind('review')).toHaveLength(1);
    });
  }

  it('explains malformed input in one line on stderr and never blocks', async () => {
    for (const bad of ['', 'not json', '[1,2]', '{"cwd":"/tmp"}', '{"session_id": 5}']) {
      const run = await hook(bad);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^ccc supervisor-hook: .*stop allowed/);
    }
  });

  it('refuses a session id that would escape the state directory', async () => {
    const run = await hook({ session_id: '../../etc/passwd', cwd: world.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/session/i);
  });

  it('waits for background tasks: no review while they run', async () => {
    const input = await realSession();
    const run = await hook({ ...input, background_tasks: [{ id: 'b1' }] });
    expect(run.stdout).toBe('');
    expect(server.byKind('review')).toHaveLength(0);
  });

  it('at the iteration limit asks the agent to write down where the work stands (one unreviewed turn), then prints no decision; WARNs logged', async () => {
    const input = await realSession();
    const env = { CCC_SUPERVISOR_MAX_ITERATIONS: '1' };
    expect(JSON.parse((await hook(input, env)).stdout).decision).toBe('block');
    const second = JSON.parse((await hook({ ...input, stop_hook_active: true }, env)).stdout) as { decision: string; reason: string };
    expect(second.decision).toBe('block');
    // ccc's own request, in its name (src/stop/block-reason.ts), then the wind-down message.
    expect(second.reason).toMatch(
      /^ccc \(the Stop hook that supervises this session\) asks you to end the work with this turn\.\nThe supervised run has reached a limit \(the iteration limit \(1\) was reached[^\n]*\n[\s\S]*Write down where the work stands/,
    );
    const third = await hook({ ...input, stop_hook_active: true }, env);
    expect(JSON.parse(third.stdout)).toEqual({ systemMessage: expect.stringMatching(/^ccc: stopped supervising: the iteration limit \(1\) was reached/) });
    expect(server.byKind('review')).toHaveLength(1);
    const log = readLog(world, input.session_id as string);
    expect(log).toMatch(/\[WARN\] .*iteration=1\/1.*iteration limit reached \(1\); the agent is asked to write down where the work stands/);
    expect(log).toMatch(/\[WARN\] .*the agent's wind-down turn ended; stop allowed without review/);
    expect(lastLogLine(world, input.session_id as string)).toMatch(/exit_code=0 mode=hook decision=allow .*run ended: limit: /);
  });

  it('with supervisor.wind_down off, the stop at the iteration limit is allowed at once', async () => {
    const input = await realSession();
    const env = { CCC_SUPERVISOR_MAX_ITERATIONS: '1', CCC_SUPERVISOR_WIND_DOWN: 'false' };
    expect(JSON.parse((await hook(input, env)).stdout).decision).toBe('block');
    expect(JSON.parse((await hook({ ...input, stop_hook_active: true }, env)).stdout)).toEqual({
      systemMessage: expect.stringMatching(/^ccc: stopped supervising: the iteration limit \(1\) was reached/),
    });
    expect(readLog(world, input.session_id as string)).toMatch(/\[WARN\] .*iteration limit reached \(1\); stop allowed without review/);
  });

  // Each hook runs under a claude of its own, as it does for real: the run's record of its task
  // (runs/claude-<pid>-<start>.json) is its claude's, and a claude runs one session's stops, one at
  // a time. Run straight from this test, the three hooks would share one owner, the test process:
  // a "claude" running two sessions at once, whose stop_hook_active stop of a after b's stop reads
  // as claude renaming b into a, and carries b's count into a (a counted 3).
  // Five claude starts (two sessions, three reviewers at once): past 60 s beside busy loops at load 25.
  it('keeps iteration counts exact when hooks of two sessions, and two of the same session, fire at once', { timeout: 180_000 }, async () => {
    const a = await realSession();
    const b = await realSession();
    const runs = await Promise.all([hookUnderClaude(a, {}), hookUnderClaude({ ...a, stop_hook_active: true }, {}), hookUnderClaude(b, {})]);
    for (const run of runs) expect(JSON.parse(run.stdout).decision).toBe('block');
    expect(state(a.session_id).iteration).toBe(2);
    expect(state(b.session_id).iteration).toBe(1);
  });

  // The order of the three above that counted a 3 when one process owned every hook: b's stop, then
  // a's stop_hook_active one (a's claude in one terminal), then a's new prompt's (another terminal).
  it("counts each session exactly when its hooks come after another claude's stop of another session", { timeout: 180_000 }, async () => {
    const a = await realSession();
    const b = await realSession();
    for (const input of [b, { ...a, stop_hook_active: true }, a]) expect(JSON.parse((await hookUnderClaude(input, {})).stdout).decision).toBe('block');
    expect(state(b.session_id).iteration).toBe(1);
    expect(state(a.session_id).iteration).toBe(2);
  });
});

describe('ccc supervisor-hook, a checker that fails', () => {
  async function session(rig: Rig, reply: Reply): Promise<{ world: ClaudeWorld; input: Record<string, unknown> }> {
    const { world } = await rig.start((r) => (r.kind === 'review' ? reply : { text: 'I am done' }));
    const run = await runProcess(claudeBin, ['-p', 'write the parser', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
    const sessionId = jsonLines(run.stdout).find((f) => f.type === 'result')!.session_id as string;
    return { world, input: { session_id: sessionId, cwd: world.cwd, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'I am done' } };
  }

  it.for([
    { name: 'an answer with no verdict', reply: { text: 'I looked around and have no opinion.' } as Reply, env: {}, says: /verdict/i },
    { name: 'a reviewer that never answers', reply: { hang: true } as Reply, env: { CCC_SUPERVISOR_TIMEOUT_SECONDS: '3' }, says: /did not answer within 3s/ },
  ])('$name: the stop is allowed with one line on stderr saying why', { timeout: 120_000 }, async ({ reply, env, says }, { rig }) => {
    const { world, input } = await session(rig, reply);
    const run = await runCcc(world, ['supervisor-hook'], { input: JSON.stringify(input), env });
    expect(run.code).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ccc supervisor-hook: .*; stop allowed$/);
    expect(lines[0]).toMatch(says);
    // The user sees it too: the TUI shows the hook's systemMessage (the stderr of a hook that exits 0 it does not).
    expect(JSON.parse(run.stdout)).toEqual({ systemMessage: expect.stringMatching(says) });
    expect(JSON.parse(run.stdout).systemMessage).toMatch(/^ccc: stopped supervising: /);
  });
});
