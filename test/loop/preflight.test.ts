/** What a user can get wrong before anything starts: each a clear message and exit 2. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';

describe('supervised launch preflight', () => {
  it('no SUPERVISOR.md anywhere: exit 2 telling the user to run ccc init', async ({ rig }) => {
    const world = rig.world();
    const run = await runCcc(world, ['--supervisor', '-p', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No SUPERVISOR\.md in .*Run `ccc init`/);
  });

  it('CCC_CLAUDE pointing at nothing: exit 2 naming the variable', async ({ rig }) => {
    const world = rig.world();
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '-p', 'x'], { env: { CCC_CLAUDE: '/nowhere/claude' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Cannot find the claude executable "\/nowhere\/claude" \(from CCC_CLAUDE\)/);
  });

  it('an invalid value: exit 2 naming the key path and the value', async ({ rig }) => {
    const world = rig.world();
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { max_iterations: 0 } }));
    const run = await runCcc(world, ['--supervisor', '-p', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/supervisor\.max_iterations/);
    expect(run.stderr).toMatch(/0/);
  });

  it('file < env < flag: the flag decides how many reviews run', async ({ rig }) => {
    const server = await rig.server((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: 'no' } } : { text: 'done?' }));
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { max_iterations: 5 } }));
    const run = await runCcc(world, ['--supervisor', '--max-iterations', '2', '-p', 'x'], { env: { CCC_SUPERVISOR_MAX_ITERATIONS: '4' } });
    expect(run.code).toBe(3);
    expect(server.byKind('review')).toHaveLength(2);
  });
});
