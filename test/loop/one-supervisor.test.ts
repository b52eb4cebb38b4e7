/**
 * One supervisor per session, on the real claude against the scripted model server: while a ccc
 * supervises a session, a second ccc on it (`--continue`, `--resume <id>`) is refused before its
 * claude starts, a standalone Stop hook on it stands back, a fork goes ahead in a session of its
 * own, and a claim left by a killed ccc is taken over.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { claudeBin, cccBin } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';
import type { Reply } from '../support/model-server.js';

const EARLIER = 'EARLIER-TASK-31: start the parser';
const ONE = 'TASK-ONE-4471: finish the parser';
const TWO = 'TASK-TWO-9902: write the docs';

describe('one supervisor per session', () => {
  /** The agent's turn on TASK-ONE is held open until `release()`: ccc one is live meanwhile. */
  async function setup(rig: Rig) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { server, world: w } = await rig.start((r): Reply => {
      if (r.kind === 'review') return { verdict: { completed: true, feedback: 'checked' } };
      if (r.lastUserText.includes(ONE)) return { text: 'AGENT-ONE-DONE', until: held };
      return { text: 'AGENT-REPLY' };
    });
    const earlier = await new Promise<string>((resolve, reject) => {
      const child = spawn(claudeBin, ['-p', '--output-format', 'stream-json', '--verbose'], { cwd: w.cwd, env: w.env });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('close', () => resolve(/"session_id":"([0-9a-f-]{36})"/.exec(out)?.[1] ?? ''));
      child.stdin.end(EARLIER);
    });
    expect(earlier).toMatch(/^[0-9a-f-]{36}$/);
    return { world: w, server, earlier, release };
  }

  /** ccc one on `--continue`, held in its first agent turn. */
  async function startFirst(t: Awaited<ReturnType<typeof setup>>) {
    const first = runCcc(t.world, ['--supervisor', '-p', ONE, '--', '--continue']);
    await vi.waitFor(() => expect(t.server.requests.some((r) => r.kind === 'agent' && r.lastUserText.includes(ONE))).toBe(true), {
      timeout: 60_000,
      interval: 50,
    });
    const claim = JSON.parse(fs.readFileSync(path.join(t.world.claudeDir, 'ccc', 'claims', `${t.earlier}.json`), 'utf8')) as { pid: number };
    return { first, pid: claim.pid };
  }

  it('a second --continue or --resume of a supervised session is refused before its claude starts; the first run is untouched', async ({ rig }) => {
    const t = await setup(rig);
    const { first, pid } = await startFirst(t);
    const requestsBefore = t.server.requests.length;
    for (const flags of [['--continue'], ['-c'], ['--resume', t.earlier]]) {
      const second = await runCcc(t.world, ['--supervisor', '-p', TWO, '--', ...flags]);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain(`session ${t.earlier} is already supervised by ccc (pid ${pid}, headless`);
      expect(second.stderr).toContain('--fork-session');
    }
    // No claude of the second ccc reached the model, and nothing of TASK-TWO is in the session.
    expect(t.server.requests.length).toBe(requestsBefore);
    t.release();
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    const reviews = t.server.byKind('review');
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.text).toContain(ONE);
    for (const r of t.server.requests) expect(r.text).not.toContain(TWO);
    const log = readLog(t.world, t.earlier);
    expect(log).not.toContain(TWO);
    // The claim goes with the run.
    expect(fs.existsSync(path.join(t.world.claudeDir, 'ccc', 'claims', `${t.earlier}.json`))).toBe(false);
  }, 180_000); // two supervised runs and their claude processes, minutes on a loaded machine

  it('an interactive ccc on a session a live ccc supervises exits 2 before the TUI starts', async ({ rig }) => {
    const t = await setup(rig);
    const { first, pid } = await startFirst(t);
    const requestsBefore = t.server.requests.length;
    const h = rig.pty(process.execPath, [cccBin, '--supervisor', '--', '--resume', t.earlier], { cwd: t.world.cwd, env: t.world.env, cols: 400 });
    const exit = await h.exited;
    expect(exit.exitCode).toBe(2);
    expect(h.screen().replace(/\s+/g, ' ')).toContain(`already supervised by ccc (pid ${pid}, headless`);
    expect(t.server.requests.length).toBe(requestsBefore);
    t.release();
    expect((await first).code).toBe(0);
  });

  it('a fork of a supervised session goes ahead in a session of its own', async ({ rig }) => {
    const t = await setup(rig);
    const { first } = await startFirst(t);
    const fork = await runCcc(t.world, ['--supervisor', '-p', TWO, '--', '--continue', '--fork-session']);
    expect(fork.code, fork.stderr).toBe(0);
    const id = /ccc: session ([0-9a-f-]{36})/.exec(fork.stderr)?.[1];
    expect(id).toBeDefined();
    expect(id).not.toBe(t.earlier);
    t.release();
    expect((await first).code).toBe(0);
  });

  it('a standalone Stop hook on a supervised session stands back and says which ccc reviews it', async ({ rig }) => {
    const t = await setup(rig);
    const { first, pid } = await startFirst(t);
    const input = JSON.stringify({
      session_id: t.earlier,
      transcript_path: path.join(t.world.claudeDir, 'projects', 'x', `${t.earlier}.jsonl`),
      cwd: t.world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    const hook = await runProcess(process.execPath, [cccBin, 'supervisor-hook'], { cwd: t.world.cwd, env: t.world.env, input });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toBe(''); // the stop is not blocked here: the supervising ccc decides
    expect(hook.stderr).toContain(`already supervised by ccc (pid ${pid}`);
    expect(t.server.byKind('review')).toHaveLength(0);
    t.release();
    expect((await first).code).toBe(0);
  });

  it('the claim of a ccc that was killed is taken over', async ({ rig }) => {
    const t = await setup(rig);
    t.release();
    // A pid that existed and is gone: a ccc killed with SIGKILL leaves its claim behind.
    const dead = await new Promise<number>((resolve) => {
      const child = spawn('true');
      child.on('close', () => resolve(child.pid!));
    });
    const claims = path.join(t.world.claudeDir, 'ccc', 'claims');
    fs.mkdirSync(claims, { recursive: true });
    fs.writeFileSync(path.join(claims, `${t.earlier}.json`), JSON.stringify({ pid: dead, mode: 'headless', cwd: t.world.cwd, started_at: 'then' }));
    const run = await runCcc(t.world, ['--supervisor', '-p', ONE, '--', '--continue']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`ccc: session ${t.earlier}`);
  });

  it('a second interactive --continue of a session an interactive ccc supervises is refused before its TUI starts, a newer print-mode session notwithstanding', async ({
    rig,
  }) => {
    const { server, world: w } = await rig.start((r): Reply =>
      r.kind === 'review' ? { verdict: { completed: true, feedback: 'checked' } } : { text: 'AGENT-REPLY' },
    );
    const first = await rig.supervised(w);
    await first.type(`${ONE}\r`);
    await first.waitForScreen(/review 1 \(claude\): complete/, 120_000);
    const claims = path.join(w.claudeDir, 'ccc', 'claims');
    const [claimed] = fs.readdirSync(claims);
    const sessionId = claimed!.replace(/\.json$/, '');
    // A print-mode session written after it is the project's newest transcript; the TUI's --continue skips it.
    const print = await runProcess(claudeBin, ['-p', EARLIER], { cwd: w.cwd, env: w.env });
    expect(print.code, print.stderr).toBe(0);
    const requestsBefore = server.requests.length;
    const second = rig.pty(process.execPath, [cccBin, '--supervisor', '--', '--continue'], { cwd: w.cwd, env: w.env, cols: 400 });
    const exit = await second.exited;
    expect(exit.exitCode).toBe(2);
    expect(second.screen().replace(/\s+/g, ' ')).toContain(`session ${sessionId} is already supervised by ccc (pid `);
    expect(second.screen()).toContain(', interactive, since');
    expect(server.requests.length).toBe(requestsBefore);
  }, 240_000);
});
