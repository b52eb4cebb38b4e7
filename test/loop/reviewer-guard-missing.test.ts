/**
 * The reviewer's guard fails closed: when claude runs without the hooks of ccc's `--settings`
 * (a `claude` wrapper adding `--bare`, or managed settings with `disableAllHooks` or
 * `allowManagedHooksOnly`), a reviewer that tries to write changes nothing and the run does not
 * say complete. The project's settings allow Bash and Write, so an unguarded reviewer would write.
 * At the scripted model server: no review request arrives at all, since ccc sees that claude drops
 * the guard in a check that reaches no model (src/checkers/reviewer/guard-check.ts) and starts no
 * reviewer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { projectSnapshot } from '../support/project-snapshot.js';
import { bashCall, scriptedReviewer } from '../support/review-script.js';

describe("the reviewer's guard fails closed", () => {
  async function runWith(rig: Rig, extraArgs: string[]) {
    const writes = [bashCall('echo x > wrote-by-bash.txt'), { name: 'Write', input: { file_path: 'WRITE-PLACEHOLDER', content: 'written' } }];
    const reviewer = scriptedReviewer(writes, { completed: true, feedback: 'verified' });
    const { server, world } = await rig.start(reviewer.scenario);
    writes[1]!.input.file_path = path.join(world.cwd, 'wrote-by-write.txt');
    fs.mkdirSync(path.join(world.cwd, '.claude'));
    fs.writeFileSync(path.join(world.cwd, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash', 'Write'] } }));
    // The wrapper adds its options to every claude ccc starts, the agent's included.
    const wrapper = path.join(world.root, 'claude-wrapper');
    const extra = extraArgs.map((a) => `'${a}'`).join(' ');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${claudeBin}' ${extra} "$@"\n`, { mode: 0o755 });
    const before = projectSnapshot(world.cwd);
    const run = await runCcc(world, ['--supervisor', '-p', 'write the notes'], { env: { CCC_CLAUDE: wrapper } });
    return { server, world, run, before, reviewer };
  }

  const cases: Array<[string, string[]]> = [
    ['--bare', ['--bare']],
    ['managed disableAllHooks', ['--managed-settings', JSON.stringify({ disableAllHooks: true })]],
    ['managed allowManagedHooksOnly', ['--managed-settings', JSON.stringify({ allowManagedHooksOnly: true })]],
  ];
  it.for(cases)('%s: the review fails (exit 4) naming the cause, and the project is unchanged', async ([, extraArgs], { rig }) => {
    const { server, world, run, before, reviewer } = await runWith(rig, extraArgs);
    expect(projectSnapshot(world.cwd)).toEqual(before);
    expect(reviewer.seen).toEqual([]);
    expect(server.byKind('review')).toEqual([]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("the reviewer's guard did not load");
    expect(run.stderr).not.toMatch(/ccc: [^✗\s] complete/);
  });
});
