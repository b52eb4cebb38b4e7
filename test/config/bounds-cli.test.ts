/**
 * A number past its bound, through the built ccc and the real claude: a review limit a Node timer
 * cannot hold (2,147,484 s or more) once failed every review at once (exit 4) and `ccc hook
 * install` wrote it into settings.json. Now each way in (a project file, an environment variable,
 * a flag, a checker's own option) is exit 2 naming the key and the maximum, before any request
 * reaches the model and before any file is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';

describe('a number past its bound, on the real thing', () => {
  async function setUp(rig: Rig, config?: object) {
    const started = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'The work is done.' } } : { text: 'All done.' }));
    if (config) fs.writeFileSync(path.join(started.world.cwd, '.cccrc.json'), JSON.stringify(config));
    return started;
  }

  const MAX = 'must be a number above 0 and at most 86400 (seconds: a day)';

  it('timeout_seconds 2147484 in the project file: exit 2 naming the key and the maximum, and no request reaches the model', async ({ rig }) => {
    const { server, world } = await setUp(rig, { supervisor: { timeout_seconds: 2_147_484 } });
    const r = await runCcc(world, ['--supervisor', '-p', 'do the task']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`supervisor.timeout_seconds = 2147484 (from ${path.join(world.cwd, '.cccrc.json')}): ${MAX}.`);
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
    expect(server.requests).toEqual([]);
  });

  it('the same through the environment, the --timeout flag and a checker of its own', async ({ rig }) => {
    const { server, world } = await setUp(rig);
    const env = await runCcc(world, ['--supervisor', '-p', 'do the task'], { env: { CCC_SUPERVISOR_TIMEOUT_SECONDS: '3000000' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain(`CCC_SUPERVISOR_TIMEOUT_SECONDS="3000000": ${MAX} (it sets supervisor.timeout_seconds)`);
    const flag = await runCcc(world, ['--supervisor', '--timeout', '3000000', '-p', 'do the task']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(`supervisor.timeout_seconds = 3000000 (from command-line flag): ${MAX}.`);
    fs.writeFileSync(
      path.join(world.cwd, '.cccrc.json'),
      JSON.stringify({ supervisor: { checkers: [{ use: 'rule', commands: ['true'], timeout_seconds: 1e7 }, 'claude'] } }),
    );
    const own = await runCcc(world, ['--supervisor', '-p', 'do the task']);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(`supervisor.checkers[0].timeout_seconds = 10000000 (from ${path.join(world.cwd, '.cccrc.json')}): ${MAX}.`);
    expect(server.requests).toEqual([]);
  });

  it('ccc hook install refuses it (exit 2) and writes nothing, where it once wrote "timeout": 3018061', async ({ rig }) => {
    const { world } = await setUp(rig, { supervisor: { timeout_seconds: 3_000_000 } });
    const r = await runCcc(world, ['hook', 'install', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`supervisor.timeout_seconds = 3000000`);
    expect(r.stderr).toContain('at most 86400');
    expect(fs.existsSync(path.join(world.cwd, '.claude', 'settings.json'))).toBe(false);
    // Past the wait on the model's limits too: the hook's timeout is summed from both.
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { limit_wait_minutes: 50_000 } }));
    const wait = await runCcc(world, ['hook', 'install', '--project']);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('supervisor.limit_wait_minutes = 50000');
    expect(wait.stderr).toContain('must be an integer from 0 to 1440 (minutes: a day)');
    expect(fs.existsSync(path.join(world.cwd, '.claude', 'settings.json'))).toBe(false);
  });

  it('at the maximum the run goes on and its review is timed by a timer that holds', async ({ rig }) => {
    const { server, world } = await setUp(rig, { supervisor: { timeout_seconds: 86_400, checkers: ['claude'] } });
    const r = await runCcc(world, ['--supervisor', '-p', 'do the task']);
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
    expect(r.code, r.stderr).toBe(0);
    expect(server.byKind('review').length).toBeGreaterThan(0);
  });
});
