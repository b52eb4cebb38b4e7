/**
 * The native Stop hook (`ccc-stop-hook`, native/stop-hook.c) against the Node one (`ccc
 * supervisor-hook --proxy`): the same answers from the same stop channel, and in a supervised
 * session on the real claude the native one is what claude runs, with the loop as before.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/state/paths.js';
import { startStopChannel, type StopChannelServer, type StopRequestHandler } from '../../src/stop/stop-channel.js';
import { cccBin, makeClaudeWorld, repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { descendants } from '../support/process-tree.js';
import { startPty, type PtyHarness } from '../support/pty-harness.js';

const nativeHook = path.join(repoRoot, 'dist', 'relay', 'ccc-stop-hook');
const STOP = JSON.stringify({ session_id: 's-1', transcript_path: '/nowhere.jsonl', cwd: '/', hook_event_name: 'Stop', stop_hook_active: false });

interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runHook(kind: 'native' | 'node', input: string, env: NodeJS.ProcessEnv): Promise<HookRun> {
  const [command, args] = kind === 'native' ? [nativeHook, ['--proxy']] : [process.execPath, [cccBin, 'supervisor-hook', '--proxy']];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a hook that allows at once does not read its input
    child.stdin.end(input);
  });
}

describe('the native Stop hook gives the Node hook\'s answers', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-nhook-'));
  let server: StopChannelServer | undefined;
  afterEach(async () => server?.close());
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function channel(onStop: StopRequestHandler) {
    server = await startStopChannel({ dir, onStop });
    return { CCC_HOOK_SOCKET: server.socketPath, CCC_HOOK_TOKEN: server.token };
  }

  it('is built with the package, and says its usage (exit 125) without --proxy', async () => {
    expect(fs.existsSync(nativeHook)).toBe(true);
    const run = await runHook('native', '', {});
    expect(run.code).toBe(0); // --proxy given, no channel: allowed
    const bare = spawn(nativeHook, [], { stdio: 'pipe' });
    const code = await new Promise((resolve) => bare.on('close', resolve));
    expect(code).toBe(125);
  });

  it.each(['native', 'node'] as const)('%s: a block prints the decision with the feedback, exit 0', async (kind) => {
    const seen: string[] = [];
    const block = JSON.stringify({ decision: 'block', reason: 'FEEDBACK: "quoted"\nand a second line ✓' });
    const env = await channel(async (input) => (seen.push(input), block));
    const run = await runHook(kind, STOP, env);
    expect(run).toEqual({ code: 0, stdout: `${block}\n`, stderr: '' });
    expect(seen).toEqual([STOP]);
  });

  it.each(['native', 'node'] as const)('%s: an allow prints nothing, exit 0', async (kind) => {
    const env = await channel(async () => '');
    expect(await runHook(kind, STOP, env)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.each(['native', 'node'] as const)('%s: a handler that fails allows the stop', async (kind) => {
    const env = await channel(async () => {
      throw new Error('boom');
    });
    expect(await runHook(kind, STOP, env)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.each(['native', 'node'] as const)('%s: the channel gone (ccc exited) allows the stop with a message', async (kind) => {
    const env = await channel(async () => 'never');
    await server!.close();
    server = undefined;
    const run = await runHook(kind, STOP, env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^ccc supervisor-hook: cannot reach the supervising ccc \(connect.*\); stop allowed\n$/);
  });

  it.each(['native', 'node'] as const)('%s: ccc going away mid-review allows the stop with a message', async (kind) => {
    const env = await channel(async () => {
      setImmediate(() => void server!.close());
      return new Promise<string>(() => {});
    });
    const run = await runHook(kind, STOP, env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^ccc supervisor-hook: cannot reach the supervising ccc \(connection closed before a.*\); stop allowed\n$/);
  });

  it.each(['native', 'node'] as const)('%s: a wrong token is refused: allowed with a message, the handler never called', async (kind) => {
    let called = false;
    const env = await channel(async () => ((called = true), 'x'));
    const run = await runHook(kind, STOP, { ...env, CCC_HOOK_TOKEN: 'wrong' });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(/cannot reach the supervising ccc \(bad token\); stop allowed/);
    expect(called).toBe(false);
  });

  it.each(['native', 'node'] as const)('%s: without a channel it allows with the same message', async (kind) => {
    const run = await runHook(kind, STOP, {});
    expect(run).toEqual({ code: 0, stdout: '', stderr: 'ccc supervisor-hook --proxy: not started by a supervising ccc (no stop channel); stop allowed\n' });
  });

  it.each(['native', 'node'] as const)("%s: the reviewer's own stop (CCC_SUPERVISOR_HOOK=1) is allowed without asking", async (kind) => {
    let called = false;
    const env = await channel(async () => ((called = true), 'x'));
    expect(await runHook(kind, STOP, { ...env, CCC_SUPERVISOR_HOOK: '1' })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(called).toBe(false);
  });

  it('native: any hook input reaches ccc unchanged, and any answer is printed unchanged', async () => {
    let last = '';
    const env = await channel(async (input) => ((last = input), input.length > 0 ? `out:${input}` : ''));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        const run = await runHook('native', text, env);
        expect(last).toBe(text);
        expect(run).toEqual({ code: 0, stdout: text.length > 0 ? `out:${text}\n` : '', stderr: '' });
      }),
      { numRuns: 60 },
    );
  });
});

describe('a supervised session on the real claude runs the native Stop hook', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  let h: PtyHarness | undefined;
  afterEach(async () => {
    h?.kill();
    await server?.close();
    world?.cleanup();
  });

  /** The Stop hook command in the --settings of the claude that ccc started. */
  function agentStopHook(root: number): string {
    for (const pid of descendants(root)) {
      let argv: string[];
      try {
        argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        continue;
      }
      const at = argv.indexOf('--settings');
      if (at === -1 || !argv.includes('--session-id')) continue;
      return (JSON.parse(argv[at + 1]!) as { hooks: { Stop: { hooks: { command: string }[] }[] } }).hooks.Stop[0]!.hooks[0]!.command;
    }
    throw new Error('no supervised claude found');
  }

  it.each([
    ['native', {}, /ccc-stop-hook --proxy$/],
    ['node (CCC_STOP_HOOK=node)', { CCC_STOP_HOOK: 'node' }, /main\.js supervisor-hook --proxy$/],
  ] as const)('%s: a block brings the feedback to the agent, then the review passes', async (_name, env, command) => {
    server = await startModelServer((r) =>
      r.kind === 'review'
        ? r.index === 0
          ? { verdict: { completed: false, feedback: 'FEEDBACK-N1 add the README' } }
          : { verdict: { completed: true, feedback: 'all good' } }
        : { text: `agent answer ${r.index}` },
    );
    world = makeClaudeWorld({ modelUrl: server.url, env });
    writeSupervisorPrompt(world);
    h = startPty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    expect(agentStopHook(h.pty.pid)).toMatch(command);
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/agent answer 1[\s\S]*review 2 \(claude\): complete/, 60_000);
    expect(server.byKind('agent')[1]!.lastUserText).toContain('FEEDBACK-N1 add the README');
  });

  // The native hook reaches ccc before Claude Code has flushed the turn to the transcript: a stop
  // counted from the stale transcript would take a new task for the old one's next round.
  it('native: each new task counts its reviews from 1, though its stop arrives before the transcript has the turn', async () => {
    server = await startModelServer((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'all good' } } : { text: 'Done.' }));
    world = makeClaudeWorld({ modelUrl: server.url });
    writeSupervisorPrompt(world);
    h = startPty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    const stateDir = path.dirname(sessionStatePath(world.claudeDir, 'x'));
    const iteration = () => {
      const file = fs.readdirSync(stateDir).find((f) => /^supervisor-.*\.json$/.test(f));
      return file ? (JSON.parse(fs.readFileSync(path.join(stateDir, file), 'utf8')) as { iteration: number; prompt_count: number }) : undefined;
    };
    for (let task = 1; task <= 4; task++) {
      await h.type(`task ${task}`);
      h.press('\r');
      await expect.poll(() => server.byKind('review').length, { timeout: 60_000 }).toBe(task);
      await expect.poll(() => iteration()?.prompt_count, { timeout: 30_000 }).toBe(task);
      expect(iteration()?.iteration).toBe(1);
      await h.waitForScreen(/❯\s*$/m, 30_000);
    }
  });
});
