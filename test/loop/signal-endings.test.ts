/**
 * Every way a headless run in a terminal can be ended from outside writes its ending: the
 * `ccc: stopped:` line, the log's last line, `sessions/<pid>.json` removed, the signal's exit code,
 * and no Node abort. One table, each case a real signal to a real process in a real pty, with the
 * real claude against the scripted model server, `ccc --supervisor -p` started as a job of an
 * interactive shell (dash, job control), through the installed `ccc` (bin.cjs), so that ccc runs
 * behind its front as a user's does. The
 * job is `run.sh`, which keeps the exit code in a file (the terminal may be gone by then) and
 * stderr in another. Last, a `ccc.config.ts` that never returns or allocates without end, there too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { lastLogLine, processesIn } from '../support/ccc-run.js';
import { cccBin, cccInstalledBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { startJobShell } from '../support/job-shell.js';
import type { PtyHarness } from '../support/pty-harness.js';

/** The first process under `root` (breadth first) whose command line matches. */
function processUnder(root: number, matches: (cmdline: string[]) => boolean): number | undefined {
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    let children: number[] = [];
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // gone
    }
    for (const child of children) {
      try {
        if (matches(fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0'))) return child;
      } catch {
        // gone
      }
      queue.push(child);
    }
  }
  return undefined;
}

/** ccc's front, node running the installed `ccc`, and ccc behind it, node running ccc's main (not run.sh or timeout, whose arguments name them too). */
const isFront = (cmdline: string[]) => cmdline[1] === cccInstalledBin && cmdline.includes('--supervisor');
const isCcc = (cmdline: string[]) => cmdline[1] === cccBin && cmdline.includes('--supervisor');
const pgidOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
};

/** `run.sh`, the job: runs its arguments with stderr in a file and keeps their exit code in another (its traps only let it outlive the signal to write them). */
function jobScript(world: ClaudeWorld): { run: string; rc: string; err: string } {
  const files = { run: path.join(world.root, 'run.sh'), rc: path.join(world.root, 'rc'), err: path.join(world.root, 'stderr') };
  fs.writeFileSync(files.run, `#!/bin/sh\ntrap : HUP TERM INT\n"$@" 2>${JSON.stringify(files.err)}\necho $? >${JSON.stringify(files.rc)}\n`, { mode: 0o755 });
  return files;
}

interface Ending {
  name: string;
  /** What runs ccc inside the job (`timeout …`); the rest of the command line is ccc's. */
  prefix?: string;
  signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP';
  /** Ends the run: `front` is the process the shell started (ccc's front), `ccc` the one behind it. */
  end(pids: { front: number; ccc: number }, h: PtyHarness): void | Promise<void>;
}

const CODE = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 } as const;

const endings: Ending[] = [
  { name: 'one SIGTERM to ccc', signal: 'SIGTERM', end: ({ ccc }) => void process.kill(ccc, 'SIGTERM') },
  { name: 'SIGTERM to the front, which passes it on', signal: 'SIGTERM', end: ({ front }) => void process.kill(front, 'SIGTERM') },
  {
    name: 'SIGTERM to the job (kill -TERM -- -PGID): ccc gets it from the sender and from its front',
    signal: 'SIGTERM',
    end: ({ front }) => void process.kill(-pgidOf(front), 'SIGTERM'),
  },
  { name: 'GNU timeout, which signals its child and then its whole group', prefix: 'timeout --preserve-status 8', signal: 'SIGTERM', end: () => {} },
  { name: 'Ctrl-C in the terminal (SIGINT to the foreground job; the front does not pass it on)', signal: 'SIGINT', end: (_, h) => h.press('\x03') },
  { name: 'SIGHUP to the job', signal: 'SIGHUP', end: ({ front }) => void process.kill(-pgidOf(front), 'SIGHUP') },
  {
    name: 'the terminal closed: the shell goes, the kernel hangs up the job, the terminal is gone when ccc exits',
    signal: 'SIGHUP',
    end: (_, h) => h.close(),
  },
];

describe('a headless run in a terminal, ended from outside: every ending is written', () => {
  async function setup(rig: Rig, agent: 'hang' | Promise<unknown>) {
    const { server, world } = await rig.start((r) =>
      r.kind === 'review' ? { verdict: { completed: true, feedback: 'done' } } : agent === 'hang' ? { hang: true } : { text: 'done', until: agent },
    );
    return { server, world, files: jobScript(world) };
  }

  const sessions = (world: ClaudeWorld) => fs.readdirSync(path.join(world.claudeDir, 'ccc', 'sessions'));
  const command = (run: string, prefix = '') => `${run} ${prefix} ${process.execPath} ${cccInstalledBin} --supervisor -p 'do it'`;

  for (const ending of endings) {
    it(ending.name, async ({ rig }) => {
      const { server, world, files } = await setup(rig, 'hang');
      const h = await startJobShell({ cwd: world.cwd, env: world.env }, rig.pty);
      await h.type(command(files.run, ending.prefix), 2);
      h.press('\r');
      await expect.poll(() => server.byKind('agent').length, { timeout: 60_000 }).toBeGreaterThan(0);
      const front = processUnder(h.pty.pid, isFront)!;
      const ccc = processUnder(front, isCcc);
      expect(ccc, 'ccc runs behind its front').toBeDefined();
      expect(sessions(world)).toHaveLength(1);
      await ending.end({ front, ccc: ccc! }, h);

      await expect.poll(() => fs.existsSync(files.rc), { timeout: 30_000 }).toBe(true);
      const stderr = fs.readFileSync(files.err, 'utf8');
      const code = CODE[ending.signal];
      expect(stderr).not.toMatch(/Assertion failed|Native stack/);
      expect(stderr).toContain(`ccc: stopped: ${ending.signal} received; the agent's turn and the review in progress were stopped`);
      expect(stderr.match(/ccc: stopped:/g)).toHaveLength(1);
      expect(fs.readFileSync(files.rc, 'utf8').trim()).toBe(String(code));
      expect(lastLogLine(world)).toMatch(new RegExp(`\\[WARN\\] .*exit_code=${code} mode=headless .*run ended: interrupted: ${ending.signal} received`));
      expect(sessions(world)).toEqual([]);
      await expect.poll(() => processesIn(world).filter((pid) => pid !== h.pty.pid), { timeout: 10_000 }).toEqual([]);
    });
  }

  it('SIGHUP ignored by the shell, the terminal closed, the run completes: exit 0, not a Node abort', async ({ rig }) => {
    let release!: (v: unknown) => void;
    const { server, world, files } = await setup(rig, new Promise((resolve) => (release = resolve)));
    // The session's leader ignores SIGHUP and stays: nobody passes the hangup on, ccc runs on with its terminal gone.
    const h = rig.pty('/bin/sh', ['-c', `trap '' HUP; ${command(files.run)}`], { cwd: world.cwd, env: world.env });
    await expect.poll(() => server.byKind('agent').length, { timeout: 60_000 }).toBeGreaterThan(0);
    h.close();
    release(undefined);
    await expect.poll(() => fs.existsSync(files.rc), { timeout: 60_000 }).toBe(true);
    const stderr = fs.readFileSync(files.err, 'utf8');
    expect(stderr).not.toMatch(/Assertion failed|Native stack/);
    expect(fs.readFileSync(files.rc, 'utf8').trim(), stderr).toBe('0');
    expect(lastLogLine(world)).toMatch(/exit_code=0 mode=headless .*run ended: completed/);
    expect(sessions(world)).toEqual([]);
  });
});

describe('an interactive run in a terminal, ended by a signal to its whole job: the ending is written', () => {
  const cases = [
    { name: 'SIGTERM to the job (kill -TERM -- -PGID)', signal: 'SIGTERM', end: (front: number) => void process.kill(-pgidOf(front), 'SIGTERM') },
    { name: 'the terminal closed', signal: 'SIGHUP', end: (_front: number, pty: PtyHarness) => pty.close() },
  ] as const;
  for (const c of cases) {
    it(c.name, async ({ rig }) => {
      const { world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'done' } } : { text: 'done' }));
      const { run, rc, err } = jobScript(world);
      const h = await startJobShell({ cwd: world.cwd, env: world.env }, rig.pty);
      await h.type(`${run} ${process.execPath} ${cccInstalledBin} --supervisor`, 2);
      h.press('\r');
      await h.waitForScreen(/❯/, 60_000);
      const front = processUnder(h.pty.pid, isFront)!;
      await expect.poll(() => fs.readdirSync(path.join(world.claudeDir, 'ccc', 'sessions')).length, { timeout: 10_000 }).toBe(1);
      c.end(front, h);
      await expect.poll(() => fs.existsSync(rc), { timeout: 30_000 }).toBe(true);
      const stderr = fs.readFileSync(err, 'utf8');
      expect(stderr).not.toMatch(/Assertion failed|Native stack/);
      expect(fs.readFileSync(rc, 'utf8').trim()).toBe(String(CODE[c.signal]));
      expect(lastLogLine(world)).toMatch(new RegExp(`exit_code=${CODE[c.signal]} mode=interactive .*run ended: ${c.signal} received and passed on`));
      expect(fs.readdirSync(path.join(world.claudeDir, 'ccc', 'sessions'))).toEqual([]);
    });
  }
});

describe('a ccc.config.ts that never returns, in a terminal (behind the front)', () => {
  async function start(rig: Rig, config: string) {
    const world = rig.world({ supervisor: true });
    fs.writeFileSync(path.join(world.cwd, 'ccc.config.ts'), config);
    const { run, rc, err } = jobScript(world);
    const h = await startJobShell({ cwd: world.cwd, env: world.env }, rig.pty);
    await h.type(`${run} ${process.execPath} ${cccInstalledBin} --supervisor -p 'do it'`, 2);
    h.press('\r');
    return { h, rc, err, file: path.join(world.cwd, 'ccc.config.ts') };
  }

  it('Ctrl-C while it loops: ccc and its front end at once (130)', async ({ rig }) => {
    const started = path.join(os.tmpdir(), `ccc-config-started-${process.pid}-${Date.now()}`);
    const files = await start(
      rig,
      `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(started)}, '');\nwhile (Date.now() > 0) {}\nexport default {};\n`,
    );
    try {
      await expect.poll(() => fs.existsSync(started), { timeout: 30_000 }).toBe(true);
      files.h.press('\x03');
      await expect.poll(() => fs.existsSync(files.rc), { timeout: 30_000 }).toBe(true);
      // Ended by the Ctrl-C while the config still looped, not by the load's CPU bound (exit 2 with
      // its message). How fast is bench/config-signal.mjs's figure, not this test's.
      expect(fs.readFileSync(files.rc, 'utf8').trim()).toBe('130');
      expect(fs.readFileSync(files.err, 'utf8')).not.toContain('did not finish loading');
    } finally {
      fs.rmSync(started, { force: true });
    }
  });

  // The bound is CPU time: on a loaded machine the loop gets a share of a core, so its 5 s of CPU
  // can take several times that on the clock.
  it('left alone: exit 2 at the 5 s bound on CPU time, naming the file', async ({ rig }) => {
    const files = await start(rig, `while (Date.now() > 0) {}\nexport default {};\n`);
    await expect.poll(() => fs.existsSync(files.rc), { timeout: 150_000 }).toBe(true);
    expect(fs.readFileSync(files.rc, 'utf8').trim()).toBe('2');
    expect(fs.readFileSync(files.err, 'utf8')).toContain(`ccc: The config file ${files.file} did not finish loading: it computed for 5s of CPU time`);
  }, 180_000);

  it('allocating without end: exit 2 at its heap bound, naming the file, no V8 abort', async ({ rig }) => {
    const files = await start(rig, `const kept: number[][] = [];\nwhile (Date.now() > 0) kept.push(new Array(100_000).fill(1));\nexport default {};\n`);
    await expect.poll(() => fs.existsSync(files.rc), { timeout: 30_000 }).toBe(true);
    expect(fs.readFileSync(files.rc, 'utf8').trim()).toBe('2');
    const stderr = fs.readFileSync(files.err, 'utf8');
    expect(stderr).toContain(`ccc: The config file ${files.file} ran out of memory while loading (limit 256 MB)`);
    expect(stderr).not.toMatch(/Native stack|FATAL ERROR/);
  });
});
