/**
 * `ccc --supervisor` where there is no terminal, as CI jobs and scripts start it: it decides the
 * mode as claude does, takes the task from stdin, and fails at once when there is none. The real
 * claude against the scripted model server; the terminal cases in a real pty.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { isToolResultTurn, type ModelServer, type Reply } from '../support/model-server.js';
import { jsonLines, type ProcessResult } from '../support/run-process.js';

const TASK = 'PIPED-TASK-42: create hello.txt';
const ESC = '\u001b';

describe('supervised runs without a terminal', () => {
  /** The agent first claims it is done; told otherwise, it writes hello.txt with Bash. The reviewer looks at the disk. */
  async function setup(rig: Rig): Promise<{ server: ModelServer; world: ClaudeWorld; hello: string }> {
    let told = false;
    const server = await rig.server((r): Reply => {
      const hello = path.join(world.cwd, 'hello.txt');
      if (r.kind === 'review') {
        const done = fs.existsSync(hello);
        if (!done) told = true;
        return { verdict: done ? { completed: true, feedback: 'hello.txt is there' } : { completed: false, feedback: 'FEEDBACK-H: hello.txt does not exist' } };
      }
      if (isToolResultTurn(r)) return { text: 'created it' };
      if (told && !fs.existsSync(hello)) return { toolUse: { name: 'Bash', input: { command: 'echo hi > hello.txt' } } };
      return { text: 'All done, I believe.' };
    });
    const world = rig.world({ server, supervisor: true });
    return { server, world, hello: path.join(world.cwd, 'hello.txt') };
  }

  it('a task piped on stdin without -p is a headless supervised run: reviewed, fed back, exit 0 only after the fix', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runCcc(t.world, ['--supervisor', '--allowedTools', 'Bash'], { input: `${TASK}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(fs.readFileSync(t.hello, 'utf8')).toBe('hi\n');
    const agent = t.server.byKind('agent');
    expect(agent[0]!.lastUserText).toContain(TASK);
    expect(agent.some((r) => r.lastUserText.includes('FEEDBACK-H'))).toBe(true);
    expect(t.server.byKind('review').length).toBeGreaterThanOrEqual(2);
    expect(run.stderr).toMatch(/ccc: ✗ not complete \(claude.*\): FEEDBACK-H/);
    expect(run.stdout).not.toContain(ESC);
  });

  it('with --json, a piped task gives the event stream on stdout', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runCcc(t.world, ['--supervisor', '--json', '--allowedTools', 'Bash'], { input: TASK });
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events.filter((e) => e.kind === 'verdict').map((e) => e.completed)).toEqual([false, true]);
    expect(events.at(-1)).toMatchObject({ kind: 'end', exit_code: 0 });
  });

  it('-p "<prompt>" with piped stdin: the task is the prompt, then stdin on a new line, as claude joins them', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runCcc(t.world, ['--supervisor', '-p', 'Explain this log:', '--allowedTools', 'Bash'], { input: 'LOG-LINE-1\nLOG-LINE-2\n' });
    expect(run.code).toBe(0);
    expect(t.server.byKind('agent')[0]!.lastUserText).toMatch(/Explain this log:\nLOG-LINE-1\nLOG-LINE-2/);
  });

  it.for([
    ['empty stdin', ''],
    ['blank stdin', ' \n\t\n'],
  ])('%s and no -p: exit 2 at once, naming -p; claude never starts; nothing on stdout', async ([_name, input], { rig }) => {
    const t = await setup(rig);
    const run = await runCcc(t.world, ['--supervisor'], { input });
    expectNoTask(run, /stdin is empty/);
    expect(t.server.requests).toHaveLength(0);
  });

  it('stdin from /dev/null: the same', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runDetached(t.world, ['--supervisor'], 'ignore');
    expectNoTask(run, /stdin is empty/);
    expect(t.server.requests).toHaveLength(0);
  });

  it('a stdin that stays open and sends nothing is waited for 3 s, as claude does, then: no task', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runDetached(t.world, ['--supervisor'], 'pipe');
    expect(run.stderr).toContain('no stdin data received in 3s');
    expectNoTask(run, /stdin sent nothing/);
  });

  it('a terminal on stdin but not on stdout (ccc --supervisor | cat): no task, exit 2, as claude fails there', async ({ rig }) => {
    const t = await setup(rig);
    const h = rig.pty('sh', ['-c', `'${process.execPath}' '${cccBin}' --supervisor | cat; echo "rc=$?"`], { cwd: t.world.cwd, env: t.world.env });
    await h.waitForOutput(/rc=\d+/, 30_000);
    const text = h.output().toString('utf8');
    expect(text).toMatch(/stdout is not a terminal: a headless run needs a task: give it with -p/);
    expect(t.server.requests).toHaveLength(0);
  });

  it('--json in a terminal without -p: exit 2 saying why, before claude starts', async ({ rig }) => {
    const t = await setup(rig);
    const h = rig.pty(process.execPath, [cccBin, '--supervisor', '--json'], { cwd: t.world.cwd, env: t.world.env });
    const exit = await h.exited;
    expect(exit.exitCode).toBe(2);
    expect(h.output().toString('utf8')).toContain('--json needs a headless run: add -p');
    expect(t.server.requests).toHaveLength(0);
  });

  function expectNoTask(run: ProcessResult, why: RegExp) {
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(why);
    expect(run.stderr).toContain('give it with -p "<task>" or on stdin');
    expect(run.stdout).toBe('');
  }
});

/** ccc with stdin from /dev/null ('ignore') or a pipe the test never writes to nor closes ('pipe'). */
function runDetached(world: ClaudeWorld, args: string[], stdin: 'ignore' | 'pipe'): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cccBin, ...args], { cwd: world.cwd, env: world.env, stdio: [stdin, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin?.destroy();
      resolve({ code, signal, stdout, stderr });
    });
  });
}
