/**
 * What the real claude does with its session flags and with stdin, which ccc's session rule
 * (src/sessions/session-flags.ts) and run-mode decision (src/loop/run-mode.ts) are built on. If an
 * upgrade changes one of these, this fails first and says which.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { descendants, liveOnes } from '../support/process-tree.js';
import { runProcess } from '../support/run-process.js';

const PRINT = ['-p', '--output-format', 'stream-json', '--verbose'];

describe("the real claude's sessions and stdin", () => {
  async function setup(rig: Rig, env: NodeJS.ProcessEnv = {}) {
    const server = await rig.server((r) => ({ text: `answer ${r.index}` }));
    return { server, world: rig.world({ server, env }) };
  }

  /** One print-mode run; its exit code, session id, init frame's cwd and stderr. */
  async function print(world: ClaudeWorld, args: string[], input: string, cwd = world.cwd) {
    const run = await runProcess(claudeBin, [...PRINT, ...args], { cwd, env: world.env, input });
    const frames = run.stdout.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const init = frames.find((f) => f.subtype === 'init');
    return {
      code: run.code,
      id: frames.find((f) => typeof f.session_id === 'string')?.session_id as string | undefined,
      cwd: init?.cwd as string | undefined,
      stderr: run.stderr,
    };
  }

  const sessionsOnDisk = (world: ClaudeWorld) =>
    fs
      .readdirSync(path.join(world.home, '.claude', 'projects'))
      .flatMap((d) => fs.readdirSync(path.join(world.home, '.claude', 'projects', d)).filter((f) => f.endsWith('.jsonl')));

  it('-p --continue continues the newest session of the project, a saved fork included; an unsaved fork is not on disk and asks the same request', async ({
    rig,
  }) => {
    const { server, world } = await setup(rig);
    const agent = await print(world, [], 'the agent task');
    const fork = await print(world, ['--resume', agent.id!, '--fork-session'], 'a review, saved');
    expect(fork.id).not.toBe(agent.id);
    expect((await print(world, ['--continue'], 'go on')).id).toBe(fork.id);
    const before = sessionsOnDisk(world).sort();
    const unsaved = await print(world, ['--resume', agent.id!, '--fork-session', '--no-session-persistence'], 'a review, not saved');
    expect(unsaved.code).toBe(0);
    expect(sessionsOnDisk(world).sort()).toEqual(before);
    const [saved, notSaved] = ['a review, saved', 'a review, not saved'].map((text) => server.requests.find((r) => r.lastUserText.includes(text))!);
    expect(JSON.stringify(notSaved!.body.tools)).toBe(JSON.stringify(saved!.body.tools));
    expect(JSON.stringify(notSaved!.body.system)).toBe(JSON.stringify(saved!.body.system));
  });

  it('-p --session-id makes that session once; with --resume it needs --fork-session; -r needs a value in print mode', async ({ rig }) => {
    const { world } = await setup(rig);
    const id = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
    expect((await print(world, ['--session-id', id], 'one')).id).toBe(id);
    const again = await print(world, ['--session-id', id], 'two');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Session ID ${id} is already in use`);
    const both = await print(world, ['--session-id', '1b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', '--resume', id], 'three');
    expect(both.stderr).toContain('--session-id with --continue or --resume also needs --fork-session');
    expect((await print(world, ['--resume', id], 'four')).id).toBe(id);
    const bare = await print(world, ['-r'], 'five');
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('--resume requires a valid session ID or session title when used with --print');
  });

  it('a prompt argument and piped stdin are joined with a newline; empty and blank stdin fail at once; an open silent stdin is waited for 3 s', async ({
    rig,
  }) => {
    const { server, world } = await setup(rig);
    expect((await runProcess(claudeBin, ['-p', 'QUESTION'], { cwd: world.cwd, env: world.env, input: 'STDIN-TEXT' })).code).toBe(0);
    expect(server.requests.at(-1)!.lastUserText).toMatch(/QUESTION\nSTDIN-TEXT$/);
    const empty = await runProcess(claudeBin, ['-p'], { cwd: world.cwd, env: world.env, input: '' });
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('Input must be provided either through stdin or as a prompt argument')]);
    const blank = await runProcess(claudeBin, ['-p'], { cwd: world.cwd, env: world.env, input: ' \n' });
    expect([blank.code, blank.stderr]).toEqual([1, expect.stringContaining('Input contained only whitespace')]);
    const silent = await new Promise<string>((resolve) => {
      const child = spawn(claudeBin, ['-p', 'QUESTION-2'], { cwd: world.cwd, env: world.env, stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('close', () => resolve(err));
    });
    expect(silent).toContain('no stdin data received in 3s, proceeding without it');
  });

  it('without -p: print mode when stdout is not a terminal; with a terminal on stdout, piped stdin opens the TUI with the text as the first prompt', async ({
    rig,
  }) => {
    const { server, world } = await setup(rig);
    const run = await runProcess(claudeBin, [], { cwd: world.cwd, env: world.env, input: 'PIPED-NO-P' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answer 0');
    const h = rig.pty('/bin/sh', ['-c', `echo PIPED-IN-TUI | '${claudeBin}'`], { cwd: world.cwd, env: world.env });
    try {
      await h.waitForScreen(/PIPED-IN-TUI[\s\S]*answer 1/, 60_000);
      expect(server.requests.at(-1)!.lastUserText).toContain('PIPED-IN-TUI');
    } finally {
      // claude is the shell's child: it must be gone before the world's files are removed (it writes there as it exits).
      const claudes = descendants(h.pty.pid);
      h.kill();
      for (const pid of claudes) killQuietly(pid);
      await expect.poll(() => liveOnes(claudes), { timeout: 10_000 }).toEqual([]);
    }
  });

  it('the interactive --continue does not continue a session made in print mode', async ({ rig }) => {
    const { world } = await setup(rig);
    expect((await print(world, [], 'made in print mode')).code).toBe(0);
    const h = rig.pty(claudeBin, ['--continue'], { cwd: world.cwd, env: world.env });
    try {
      await h.waitForOutput(/No conversation found to continue/, 30_000);
      expect((await h.exited).exitCode).toBe(1);
    } finally {
      h.kill();
    }
  });

  it('--worktree moves the session into a new checkout; --resume from the first checkout goes there, a fork stays where it is started', async ({ rig }) => {
    const { world } = await setup(rig, {
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    });
    await runProcess('sh', ['-c', 'git init -q . && git commit -q --allow-empty -m init'], { cwd: world.cwd, env: world.env });
    const worktree = path.join(world.cwd, '.claude', 'worktrees', 'wt1');
    const first = await print(world, ['-w', 'wt1'], 'in a worktree');
    expect(first.cwd).toBe(worktree);
    expect((await print(world, ['--resume', first.id!], 'again')).cwd).toBe(worktree);
    expect((await print(world, ['--resume', first.id!, '--fork-session', '--no-session-persistence'], 'fork')).cwd).toBe(world.cwd);
  });
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
