/**
 * Headless supervised runs (`ccc --supervisor -p`) with the real claude against the scripted
 * model server: the acceptance checks of the supervised-sessions issue.
 */
import { describe, expect } from 'vitest';
import { processesIn, readLog, runCcc, SUPERVISOR_TEXT } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { Reply } from '../support/model-server.js';

describe('ccc --supervisor -p (headless)', () => {
  function setup(rig: Rig, review: (index: number) => Reply, agent: (index: number) => Reply = (i) => ({ text: `agent answer ${i}` })) {
    return rig.start((r) => (r.kind === 'review' ? review(r.index) : agent(r.index)));
  }

  it('delivers the feedback into the user session, then exits 0 when the reviewer confirms', async ({ rig }) => {
    const X = 'FEEDBACK-X: the tests for parse() are missing';
    const { server, world } = await setup(rig, (i) =>
      i === 0 ? { verdict: { completed: false, feedback: X } } : { verdict: { completed: true, feedback: 'looks done' } },
    );
    const run = await runCcc(world, ['--supervisor', '-p', 'write parse() with tests']);
    expect(run.stderr).toContain('Supervisor mode enabled');
    expect(run.code).toBe(0);

    const agent = server.byKind('agent');
    const reviews = server.byKind('review');
    expect(reviews).toHaveLength(2);
    expect(agent).toHaveLength(2);
    // X is the agent's next user message, in the user's own session (it still holds the task and the first answer) ...
    expect(agent[1]!.lastUserText).toContain(X);
    expect(agent[1]!.text).toContain('write parse() with tests');
    expect(agent[1]!.text).toContain('agent answer 0');
    // ... and not in the fork: the agent never sees the review instructions.
    expect(agent[1]!.text).not.toContain('REVIEW-RULES-7731');
    for (const review of reviews) expect(review.text).toContain(SUPERVISOR_TEXT);
    expect(reviews[1]!.text).toContain(X.slice(0, 10)); // the second review forks the session that holds X
    expect(run.stdout).toContain('agent answer 0');
    expect(run.stdout).toContain('agent answer 1');

    const log = readLog(world);
    const line = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[(DEBUG|INFO|WARN|ERROR)\] \[[\w-]+\] .*$/;
    for (const l of log.trim().split('\n')) expect(l).toMatch(line);
    expect(log).toMatch(/\[INFO\] \[supervisor\] .*session_id=[0-9a-f-]{36}.*iteration=1\/20/);
    expect(log).toMatch(/iteration=2\/20/);
  });

  it('stops after max_iterations reviews (from the environment) with exit 3, every feedback but the last delivered; the last turn is the wind-down, not a run nothing would review', async ({
    rig,
  }) => {
    // Seven claude runs: 18 s beside two busy loops, past vitest's 60 s default at load 10 (a
    // bound for a hang, hence the test's own).
    // Different feedback each time: the same one three times over an unchanged tree would trip the no-progress guard first.
    const asks = ['add the missing tests', 'fix the parser edge case', 'document the new flag'];
    const { server, world } = await setup(rig, (i) => ({ verdict: { completed: false, feedback: `still wrong #${i}: ${asks[i] ?? 'more'}` } }));
    const run = await runCcc(world, ['--supervisor', '-p', 'never good enough'], { env: { CCC_SUPERVISOR_MAX_ITERATIONS: '3' }, timeoutMs: 200_000 });
    expect(run.code).toBe(3);
    expect(server.byKind('review')).toHaveLength(3);
    // Every agent run but the wind-down was reviewed: the third feedback would start a fourth run with no review left,
    // so the fourth run is the agent's last, asked to write down where the work stands.
    const agent = server.byKind('agent');
    expect(agent).toHaveLength(4);
    for (let i = 0; i < 2; i++) expect(agent[i + 1]!.lastUserText).toContain(`still wrong #${i}`);
    expect(agent[3]!.lastUserText).not.toContain('still wrong #2');
    expect(agent[3]!.lastUserText).toMatch(/^The supervised run has reached a limit \(the iteration limit \(3\) was reached[\s\S]*what is not done yet/);
    expect(run.stdout).toContain('agent answer 3'); // the agent's account of where the work stands reaches the user
    expect(run.stderr).toMatch(
      /ccc: the iteration limit \(3\) was reached .*; asking the agent to write down where the work stands \(one last turn, not reviewed\)/,
    );
    expect(run.stderr).toMatch(
      /stopped: the iteration limit \(3\) was reached without the checker confirming completion; the agent was not run again with the last feedback \(it is in the log\); the agent was given one last turn to write down where the work stands/,
    );
    expect(readLog(world)).toMatch(/\[WARN\] .*iteration limit reached \(3\); the last feedback was not sent to the agent/);
    expect(readLog(world)).toContain('still wrong #2');
  }, 240_000);

  it('with supervisor.wind_down off, the run ends at max_iterations with no agent run after the last review', async ({ rig }) => {
    const { server, world } = await setup(rig, (i) => ({ verdict: { completed: false, feedback: `still wrong #${i}` } }));
    const run = await runCcc(world, ['--supervisor', '-p', 'never good enough'], {
      env: { CCC_SUPERVISOR_MAX_ITERATIONS: '2', CCC_SUPERVISOR_WIND_DOWN: '0' },
    });
    expect(run.code).toBe(3);
    expect(server.byKind('review')).toHaveLength(2);
    expect(server.byKind('agent')).toHaveLength(2);
    expect(run.stderr).not.toMatch(/write down where the work stands/);
  });

  it('kills a reviewer that never answers at timeout_seconds, logs the failure and exits 4 without leftovers', async ({ rig }) => {
    const { world } = await setup(rig, () => ({ hang: true }));
    const run = await runCcc(world, ['--supervisor', '--timeout', '3', '-p', 'do it']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/did not answer within 3s/);
    expect(readLog(world)).toMatch(
      /\[ERROR\] .*exit_code=\S+ signal=\S+ stderr=.*checker failed; stop allowed: .*the claude reviewer did not answer within 3s/,
    );
    // ccc has exited: what it killed may take a moment to go, what it left behind stays.
    await expect.poll(() => processesIn(world), { timeout: 5_000 }).toEqual([]);
  });

  it('a reviewer that crashes is a checker failure (exit 4), never a hang', async ({ rig }) => {
    const { world } = await setup(rig, () => ({ error: { status: 400, message: 'reviewer exploded' } }));
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(4);
    expect(readLog(world)).toMatch(/\[ERROR\] .*exit_code=1/);
  });

  it('a reviewer that answers garbage is asked again, then fails with exit 4', async ({ rig }) => {
    const { world } = await setup(rig, () => ({ text: 'Hmm, I am not sure what to say.' }));
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/without a parseable verdict/);
  });

  it('--json prints the event stream as JSON lines on stdout, ending with the end event', async ({ rig }) => {
    const { world } = await setup(rig, (i) => ({ verdict: { completed: i > 0, feedback: i > 0 ? 'ok' : 'one more thing' } }));
    const run = await runCcc(world, ['--supervisor', '--json', '-p', 'do it']);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const kinds = lines.map((l) => l.kind);
    expect(kinds).toContain('frame');
    const verdicts = lines.filter((l) => l.kind === 'verdict');
    expect(verdicts.map((v) => [v.iteration, v.completed, v.feedback])).toEqual([
      [1, false, 'one more thing'],
      [2, true, 'ok'],
    ]);
    expect(lines[lines.length - 1]).toMatchObject({ kind: 'end', exit_code: 0 });
  });

  it('accepts a verdict given as text with the completion marker', async ({ rig }) => {
    const { world } = await setup(rig, () => ({ text: 'I ran the tests, all green.\n[TASK_COMPLETED]\n' }));
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(0);
  });
});
