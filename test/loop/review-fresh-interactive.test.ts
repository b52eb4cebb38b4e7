/**
 * The fresh review in an interactive session, on the real claude in a pty: every forked review
 * request and every compaction of claude's is answered 400 `prompt is too long`, so ccc reviews
 * afresh, given the change since the task began. The task begins when the session is launched
 * (ccc records the project then, before the user types): the agent's committed fix and its new file
 * are in the fresh reviewer's message, a note left in the project before the launch is not. A task
 * that ends begins the next one: the second task's fresh review holds its own change only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLog } from '../support/ccc-run.js';
import { isToolResultTurn, type RecordedRequest, type Reply } from '../support/model-server.js';
import { bashCall, isCompaction, isForkedReview, scriptedReviewer } from '../support/review-script.js';
import { supervisedPtyFixture } from '../support/supervised-pty.js';

const tooLong: Reply = { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\n";

function git(cwd: string, ...args: string[]) {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

/** The agent's work, one Bash call: it fixes `add`, commits the fix, and writes a new notes file. */
const AGENT_WORK =
  "printf 'exports.add = (a, b) => a + b; // FIXED-5923\\n' > add.js && git -c user.name=a -c user.email=a@example.com commit -qam 'COMMIT-8462 fix add' && printf 'NEW-FILE-3371: add now adds.\\n' > NOTES.md";

/** Fixes add with a real Bash call, then says so. */
const agent = (r: RecordedRequest): Reply =>
  isToolResultTurn(r) ? { text: 'Fixed add.' } : { toolUse: { name: 'Bash', input: { command: AGENT_WORK, description: 'fix add' } } };

/** A git project whose committed `add` is wrong, with an uncommitted note from before the session. */
function project(cwd: string) {
  fs.mkdirSync(path.join(cwd, 'test'));
  fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node --test' } }));
  fs.writeFileSync(path.join(cwd, 'test', 'add.test.js'), `${NODE_TEST}test('adds', () => assert.strictEqual(add(2, 3), 5));\n`);
  fs.writeFileSync(path.join(cwd, 'add.js'), 'exports.add = (a, b) => a - b;\n');
  git(cwd, 'init', '-q');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-qm', 'start');
  fs.writeFileSync(path.join(cwd, 'OLD.md'), 'OLD-NOTE-2290: before the session.\n');
}

describe('a fresh review in an interactive session', () => {
  const fixture = supervisedPtyFixture();

  it('is given the change since the session began: the committed fix and the new file, not what was there before', async () => {
    const reviewer = scriptedReviewer([bashCall('npm test')], { completed: true, feedback: 'add adds; npm test passes' });
    const { h, server, world } = await fixture.launch(
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

  it("a second task's fresh review is given the change since that task began: the first task's fix is not in it", async () => {
    const reviewer = scriptedReviewer([bashCall('npm test')], { completed: true, feedback: 'done; npm test passes' });
    const second = (r: RecordedRequest): Reply =>
      isToolResultTurn(r)
        ? { text: 'Wrote the docs.' }
        : { toolUse: { name: 'Bash', input: { command: "printf 'DOCS-6180: add adds.\\n' > DOCS.md", description: 'write docs' } } };
    const { h, server } = await fixture.launch(
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
