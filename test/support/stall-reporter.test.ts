/**
 * The stall reporter on a real vitest run: a worker blocked where vitest's timeouts cannot reach
 * it is named, with its process tree, and the run ends instead of holding CI until its limit.
 * Limit 3 s here (10 min in CI).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './claude-env.js';
import { isAlive } from './process-tree.js';
import { runProcess } from './run-process.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'stall');

function runFixture(file: string, env: NodeJS.ProcessEnv = {}) {
  const vitest = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
  return runProcess(process.execPath, [vitest, 'run', '--root', fixtures, '--config', path.join(fixtures, 'stall.config.ts')], {
    cwd: repoRoot,
    env: { ...process.env, CI: '', STALL_FIXTURE: file, CCC_TEST_STALL_MINUTES: '0.05', ...env },
    timeoutMs: 50_000,
  });
}

describe('the stall reporter', () => {
  it('a worker waiting on a child that never exits: the file is named with its tree, the child killed, the test fails', async () => {
    const run = await runFixture('child.stall.ts');
    expect(run.signal).toBeNull(); // ended by itself, not by the bound above
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/stall: \S*child\.stall\.ts has run \d+ s \(limit 3 s\)/);
    expect(run.stderr).toContain('stall:   running: not reported by its worker');
    expect(run.stderr).toMatch(/stall: {5,}\d+ .*sleep 600/); // the child, below its worker
    expect(run.stderr).toMatch(/stall: killed 1 process\(es\)[^\n]*: \d+\n/);
    expect(run.stdout).toMatch(/expected 'SIGKILL' to be null/);
    expect(run.stdout).toMatch(/1 failed/);
  });

  it('a worker spinning with no child to kill: the run ends after twice the limit, the stall named', async () => {
    const run = await runFixture('loop.stall.ts');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/stall: \S*loop\.stall\.ts has run/);
    expect(run.stderr).toContain('stall: killed 0 process(es)');
    expect(run.stderr).toMatch(/stall: \S*loop\.stall\.ts still running after \d+ s; ending the run/);
    const worker = /stall: +(\d+) .*node \(vitest \d+\)/.exec(run.stderr);
    expect(worker, 'the worker in the printed tree').not.toBeNull();
    // The spinning worker does not outlive the run: killed as vitest ends, it is gone once the
    // kernel has run its exit, which on a loaded machine is not yet when vitest's own exit is seen.
    await expect.poll(() => isAlive(Number(worker![1])), { timeout: 10_000 }).toBe(false);
  });

  it('a check that comes only after two limits (a starved main process) still names the stall and its tree before ending the run', async () => {
    const run = await runFixture('loop.stall.ts', { CCC_TEST_STALL_CHECK_SECONDS: '10' });
    expect(run.code).toBe(1);
    const report = run.stderr.search(/stall: \S*loop\.stall\.ts has run \d+ s/);
    const ending = run.stderr.search(/stall: \S*loop\.stall\.ts still running after \d+ s; ending the run/);
    expect(report, run.stderr).toBeGreaterThanOrEqual(0);
    expect(ending, run.stderr).toBeGreaterThan(report);
    expect(run.stderr).toMatch(/stall: +\d+ .*node \(vitest \d+\)/);
  });
});
