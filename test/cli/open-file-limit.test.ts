/**
 * Under a low open-file limit ccc refuses to start with one line naming the limit and the fix
 * (exit 2), in both modes, before claude runs, instead of dying in Node's module loader with an
 * EMFILE stack. At the limit it asks for, a run works, and in the TUI no warning is drawn over
 * Claude Code's screen.
 */
import { describe, expect } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';
import type { Reply } from '../support/model-server.js';
import { OPEN_FILES_NEEDED, openFileLimit } from '../../src/process/open-file-limit.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63504                63504                processes
Max open files            32                   4096                 files
`;

describe('openFileLimit', () => {
  it('reads the soft limit; unlimited or unreadable is undefined', () => {
    expect(openFileLimit(() => LIMITS)).toBe(32);
    expect(openFileLimit(() => LIMITS.replace(/32 {19}/, 'unlimited          '))).toBeUndefined();
    expect(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});

const underLimit = (n: number, args: string[]) => ['-c', `ulimit -n ${n}; exec "${process.execPath}" "${cccBin}" ${args.join(' ')}`];
const complete = (r: { kind: string }): Reply => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'done' } } : { text: 'done' });
const REFUSAL = `ccc: too few file descriptors: ulimit -n is 32, ccc needs ${OPEN_FILES_NEEDED}. Raise it (\`ulimit -n 1024\`) and run ccc again.\n`;

describe.skipIf(process.platform !== 'linux')('ccc under ulimit -n', () => {
  it('32, headless: one line naming the limit and the fix, exit 2, claude never started', async ({ rig }) => {
    const { server, world } = await rig.start(complete);
    const run = await runProcess('/bin/bash', underLimit(32, ['--supervisor', '-p', 'hello']), { cwd: world.cwd, env: world.env, input: '' });
    expect(run.stderr).toBe(REFUSAL);
    expect(run.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('32, interactive: the same line on the terminal, exit 2, claude never started', async ({ rig }) => {
    const { server, world } = await rig.start(complete);
    const h = rig.pty('/bin/bash', underLimit(32, ['--supervisor']), { cwd: world.cwd, env: world.env });
    expect((await h.exited).exitCode).toBe(2);
    expect(h.screen().trim()).toBe(REFUSAL.trim());
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it(`${OPEN_FILES_NEEDED}, headless: the run works`, async ({ rig }) => {
    const { world } = await rig.start(complete);
    const run = await runProcess('/bin/bash', underLimit(OPEN_FILES_NEEDED, ['--supervisor', '-p', 'hello']), {
      cwd: world.cwd,
      env: world.env,
      input: '',
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('⚠ complete (claude, unverified');
    expect(run.stderr).not.toMatch(/WARN|EMFILE/);
  }, 150_000);

  it(`${OPEN_FILES_NEEDED}, interactive: a review runs and nothing of ccc is drawn over Claude Code's screen`, async ({ rig }) => {
    const { world } = await rig.start(complete);
    const h = rig.pty('/bin/bash', underLimit(OPEN_FILES_NEEDED, ['--supervisor']), { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await h.type('hello\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 120_000);
    expect(h.output().toString('utf8')).not.toMatch(/WARN|EMFILE|too many open files/);
  }, 200_000);
});
