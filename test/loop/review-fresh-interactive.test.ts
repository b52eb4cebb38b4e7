/**
 * The fresh review in an interactive session, on the real claude in a pty: every forked review
 * request and every compaction of claude's is answered 400 `prompt is too long`, so ccc reviews
 * afresh, given the change since the task began. The task begins when the session is launched
 * (ccc records the project then, before the user types): the agent's committed fix and its new file
 * are in the fresh reviewer's message, a note left in the project before the launch is not. A task
 * that ends begins the next one: the second task's fresh review holds its own change only.
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { readLog } from '../support/ccc-run.js';
import { isToolResultTurn, type RecordedRequest, type Reply } from '../support/model-server.js';
import { bashCall, isCompaction, isForkedReview, scriptedReviewer } from '../support/review-script.js';
import { freshReviewWorld, tooLong } from '../support/fresh-review-project.js';

const { agent, project } = freshReviewWorld({ fixed: 'FIXED-5923', commit: 'COMMIT-8462', newFile: 'NEW-FILE-3371', oldNote: 'OLD-NOTE-2290' });

describe('a fresh review in an interactive session', () => {
  it('is given the change since the session began: the committed fix and the new file, not what was there before', async ({ rig }) => {
    const reviewer = scriptedReviewer([bashCall('npm test')], { completed: true, feedback: 'add adds; npm test passes' });
    const { h, server, world } = await rig.launch(
      (r) => ((r.kind === 'review' && isForkedReview(r)) || isCompaction(r) ? tooLong : r.kind === 'review' ? reviewer.scenario(r) : agent(r)),
      // acceptEdits: the pinned claude's TUI starts here in auto mode, which sets `--allowedTools Bash`
      // aside and asks for a classifier the scripted server does not have.
      { args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'], prepare: (w) => project(w.cwd) },
    );
    await h.type('fix add so that the tests pass');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 150_000);
    expect(server.byKind('review').filter(isForkedReview).length).toBeGreaterThan(0);
    const fresh = server.byKind('review').filter((r) => !isForkedReview(r));
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh[0]!.text).toContain('fix add so that the tests pass');
    expect(fresh[0]!.text).toContain('Fixed add.');
    // The change since the session began: the committed fix (its diff and its commit) and the new file; not the note from before.
    expect(fresh[0]!.text).toContain('+exports.add = (a, b) => a + b; // FIXED-5923');
    expect(fresh[0]!.text).toContain('COMMIT-8462 fix add');
    expect(fresh[0]!.text).toContain('+NEW-FILE-3371');
    expect(fresh[0]!.text).not.toContain('OLD-NOTE-2290');
    // The fresh reviewer ran the tests itself.
    expect(reviewer.seen.map((s) => [s.call.input.command, s.isError])).toEqual([['npm test', false]]);
    expect(readLog(world)).toMatch(/completed=true checker=claude review=fresh .*review finished/);
  }, 200_000);

  it("a second task's fresh review is given the change since that task began: the first task's fix is not in it", async ({ rig }) => {
    const reviewer = scriptedReviewer([bashCall('npm test')], { completed: true, feedback: 'done; npm test passes' });
    const second = (r: RecordedRequest): Reply =>
      isToolResultTurn(r)
        ? { text: 'Wrote the docs.' }
        : { toolUse: { name: 'Bash', input: { command: "printf 'DOCS-6180: add adds.\\n' > DOCS.md", description: 'write docs' } } };
    const { h, server } = await rig.launch(
      (r) =>
        (r.kind === 'review' && isForkedReview(r)) || isCompaction(r)
          ? tooLong
          : r.kind === 'review'
            ? reviewer.scenario(r)
            : r.text.includes(SECOND_TASK)
              ? second(r)
              : agent(r),
      { args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'], prepare: (w) => project(w.cwd) },
    );
    await h.type('fix add so that the tests pass');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 150_000);
    await h.type(SECOND_TASK);
    h.press('\r');
    const freshOfSecond = () => server.byKind('review').filter((r) => !isForkedReview(r) && r.text.includes('Wrote the docs.'));
    await expect.poll(() => reviewer.seen.length, { timeout: 150_000 }).toBe(2);
    const [fresh] = freshOfSecond();
    expect(fresh?.text).toContain('+DOCS-6180');
    expect(fresh?.text).not.toContain('+exports.add = (a, b) => a + b; // FIXED-5923');
    expect(fresh?.text).not.toContain('+NEW-FILE-3371');
  }, 300_000);
});

const SECOND_TASK = 'now write DOCS.md';
