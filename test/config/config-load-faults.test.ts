/**
 * A config file is code that runs while ccc starts: one whose top-level await never settles, that
 * never returns (a synchronous endless loop), that allocates without end, or that calls
 * process.exit, ends the launch with a message naming the file (the built CLI, as a user runs it);
 * and while it runs, a signal ends ccc at once.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

describe('a config file that misbehaves while loading', () => {
  it('a top-level await that never settles: exit 2 naming the file (not a silent exit 13)', async ({ rig }) => {
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.ts');
    fs.writeFileSync(file, `await new Promise<void>(() => {});\nexport default { supervisor: { max_iterations: 3 } };\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The config file ${file} stopped before it exported anything: a top-level await in it never settles`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('Supervisor mode enabled');
  });

  it('a top-level await on a timer that never fires its answer: exit 2 after the 15 s bound on waiting, naming the file', async ({ rig }) => {
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.mjs');
    fs.writeFileSync(file, `await new Promise(() => setInterval(() => {}, 1000));\nexport default {};\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `The config file ${file} did not finish loading within 15s: it waits on something that never answers (a top-level await that never settles)`,
    );
  });

  it('time it spends not computing is not held against the CPU bound: a config that blocks 6 s without CPU loads', async ({ rig }) => {
    // What a loaded machine does to a valid config's transpile: more wall time, no more CPU.
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.mjs');
    fs.writeFileSync(file, `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6000);\nexport default { supervisor: { max_iterations: 7 } };\n`);
    const run = await runCcc(world, ['config', '--json'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ supervisor: { max_iterations: 7 } });
  });

  it('a synchronous endless loop: exit 2 after the 5 s bound on CPU time, naming the file (it used to hang ccc for good)', async ({ rig }) => {
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.ts');
    fs.writeFileSync(file, `while (Date.now() > 0) {}\nexport default {};\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { timeoutMs: 170_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ccc: The config file ${file} did not finish loading: it computed for 5s of CPU time without returning (an endless loop?). A config file must only export the configuration.\n`,
    );
  }, 180_000);

  it('an allocation without end: exit 2 naming the file and the heap limit (it used to take ccc to ~4 GB and a V8 abort)', async ({ rig }) => {
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.ts');
    fs.writeFileSync(file, `const kept: number[][] = [];\nwhile (Date.now() > 0) kept.push(new Array(100_000).fill(1));\nexport default {};\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { timeoutMs: 60_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The config file ${file} ran out of memory while loading (limit 256 MB): it allocates without end.`);
    expect(run.stderr).not.toMatch(/\n\s+at |Native stack/);
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} while a config file loops: ccc ends at once (${code} in a shell; it used to ignore every signal but SIGKILL)`, async ({ rig }) => {
      const world = rig.world();
      const started = path.join(world.root, 'config-started');
      fs.writeFileSync(
        path.join(world.cwd, 'ccc.config.ts'),
        `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(started)}, '');\nwhile (Date.now() > 0) {}\nexport default {};\n`,
      );
      const child = spawn(process.execPath, [cccBin, '--supervisor', '-p', 'do it'], { cwd: world.cwd, env: world.env, stdio: 'ignore' });
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (c, s) => resolve({ code: c, signal: s })),
      );
      await expect.poll(() => fs.existsSync(started), { timeout: 30_000 }).toBe(true);
      child.kill(signal);
      try {
        // Ended by the signal itself (its default action: nothing of the run exists yet), as a shell
        // reports it: 128 + n; not by the load's bounds, which end ccc with exit 2. How fast is
        // bench/config-signal.mjs's figure, not this test's.
        expect(await ended).toEqual({ code: null, signal });
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  it('process.exit(9) in a config: the exit code stays, and a message names the file', async ({ rig }) => {
    const world = rig.world();
    const file = path.join(world.cwd, 'ccc.config.mjs');
    fs.writeFileSync(file, `process.exit(9);\nexport default {};\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(9);
    expect(run.stderr).toBe(
      `ccc: the config file ${file} ended ccc while it was loading (exit code 9; a process.exit call in it?). A config file must only export the configuration.\n`,
    );
  });
});
