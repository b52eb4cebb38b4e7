/**
 * A review whose fork is over the model's window, on the real claude: every forked review request
 * and every compaction request of claude's is answered 400 `prompt is too long`, so ccc runs a
 * fresh reviewer, a new session given the task, the agent's last message and the change since the
 * task began: the agent committed its fix and left a new file, and both are in the message (a diff
 * against the checked-out commit would show neither the committed fix nor the file's content). It
 * still runs the tests itself (its verdict is verified by them), it still cannot change the
 * project, and the verdict says it was a fresh review: in the `--json` verdict and the log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { freshReviewWorld, tooLong } from '../support/fresh-review-project.js';
import { bashCall, isCompaction, isForkedReview, scriptedReviewer } from '../support/review-script.js';
import { jsonLines } from '../support/run-process.js';

const { agent, project } = freshReviewWorld({ fixed: 'FIXED-3141', commit: 'COMMIT-1618', newFile: 'NEW-FILE-2718', oldNote: 'OLD-NOTE-1414' });

describe('a review whose fork does not fit the model window', () => {
  it('is made fresh: a verdict verified by the tests the fresh reviewer ran, with the change in its message and no write allowed', async ({ rig }) => {
    const reviewer = scriptedReviewer([bashCall('npm test'), bashCall('echo owned > hacked.txt')], { completed: true, feedback: 'add adds; npm test passes' });
    const server = await rig.server((r) =>
      (r.kind === 'review' && isForkedReview(r)) || isCompaction(r) ? tooLong : r.kind === 'review' ? reviewer.scenario(r) : agent(r),
    );
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    project(world.cwd);
    const run = await runCcc(world, ['--supervisor', '--json', '--timeout', '120', '-p', 'fix add so that the tests pass', '--', '--allowedTools', 'Bash'], {
      env: { CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: '0' },
      timeoutMs: 170_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const fresh = server.byKind('review').filter((r) => !isForkedReview(r));
    expect(server.byKind('review').filter(isForkedReview).length).toBeGreaterThan(0);
    expect(fresh.length).toBeGreaterThan(0);
    // The fresh reviewer was given the task, the agent's last message and the change.
    expect(fresh[0]!.text).toContain('fix add so that the tests pass');
    expect(fresh[0]!.text).toContain('Fixed add.');
    // The change since the task began: the committed fix (its diff and its commit) and the new file; not the note from before.
    expect(fresh[0]!.text).toContain('+exports.add = (a, b) => a + b; // FIXED-3141');
    expect(fresh[0]!.text).toContain('COMMIT-1618 fix add');
    expect(fresh[0]!.text).toContain('+NEW-FILE-2718');
    expect(fresh[0]!.text).not.toContain('OLD-NOTE-1414');
    expect(fresh[0]!.text).toContain('REVIEW-RULES-7731');
    // It ran the tests itself, and its write was refused.
    expect(reviewer.seen.map((s) => [s.call.input.command, s.isError])).toEqual([
      ['npm test', false],
      ['echo owned > hacked.txt', true],
    ]);
    expect(fs.existsSync(path.join(world.cwd, 'hacked.txt'))).toBe(false);
    const verdict = jsonLines(run.stdout).find((e) => e.kind === 'verdict');
    expect(verdict).toMatchObject({ completed: true, verification: 'verified', review: 'fresh' });
    const log = readLog(world);
    expect(log).toContain("the forked review does not fit the model's window even compacted; reviewing afresh");
    expect(log).toMatch(/completed=true checker=claude review=fresh .*review finished/);
  });
});
