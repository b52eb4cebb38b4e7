/**
 * ccc's own markers cannot be inherited by accident. `CCC_SUPERVISOR_HOOK=1` in the user's
 * environment used to switch interactive supervision off without a word (the agent stopped, no
 * review ran), and ccc passed it on to the agent, so that every test suite the agent or the
 * reviewer ran inherited it. Now a marker counts only for a claude that the ccc it names started,
 * a stray one is said once, and the agent gets this ccc's markers only. The real claude, in a real
 * pty for the interactive case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';

const WARNING = 'ccc: warning: CCC_SUPERVISOR_HOOK is set in the environment ("1"), but no ccc running this one set it; ccc ignores it and does not pass it on';

describe('a stray CCC_SUPERVISOR_HOOK=1, interactive', () => {
  it('the agent stops and its stop is reviewed as usual; ccc says the variable is ignored', async ({ rig }) => {
    const { h, server } = await rig.launch(
      (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'all good' } } : { text: 'Done with the task.' }),
      { prepare: (world) => void (world.env.CCC_SUPERVISOR_HOOK = '1') },
    );
    await h.type('do the task');
    h.press('\r');
    await expect.poll(() => server.byKind('review').length, { timeout: 90_000 }).toBe(1);
    expect(h.output().toString('utf8')).toContain(WARNING);
  });
});

describe("the agent's environment holds this ccc's markers only (headless)", () => {
  it('stray markers are dropped, CCC_SUPERVISED names this ccc, and each stray switch is said once', async ({ rig }) => {
    const server = await rig.server((r) => {
      if (r.kind === 'review') return { verdict: { completed: true, feedback: 'ok' } };
      if (isToolResultTurn(r)) return { text: 'Recorded.' };
      return { toolUse: { name: 'Bash', input: { command: 'env | grep ^CCC_ | sort > agent-env.txt', description: 'record the environment' } } };
    });
    // CCC_FRONT_FD too: ccc took whatever its fd 3 was for its front's socket, and closed it later.
    const world = rig.world({
      modelUrl: server.url,
      env: { CCC_SUPERVISOR_HOOK: '1', CCC_HOOK_TOKEN: 'stale-token', CCC_REVIEWER_POLICY: '{}', CCC_FRONT_FD: '3' },
    });
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '-p', 'record the environment', '--', '--allowedTools', 'Bash']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('ccc: warning:'))).toEqual([
      `ccc: warning: CCC_FRONT_FD is set in the environment ("3"), but ccc's front did not set it; ignored`,
      `${WARNING} (it marks what a ccc starts, and is never taken from the environment)`,
    ]);
    const recorded = fs.readFileSync(path.join(world.cwd, 'agent-env.txt'), 'utf8');
    expect(recorded).not.toMatch(/^CCC_SUPERVISOR_HOOK=|^CCC_HOOK_TOKEN=|^CCC_REVIEWER_POLICY=/m);
    expect(recorded).toMatch(/^CCC_SUPERVISED=\d+$/m);
  });
});
