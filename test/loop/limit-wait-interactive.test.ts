/**
 * An interactive session left alone meets the model's limits: the scripted server answers the
 * reviewer's or the agent's first requests with 429 (a retry-after of an hour, so claude itself
 * gives up at once). ccc waits on its schedule (1 s, then 2 s: CCC_SUPERVISOR_LIMIT_RETRY_SECONDS)
 * and says so. A refused review: the Stop hook is kept alive and the same stop reviewed again. A
 * refused agent turn (claude shows its error and waits for the user): ccc types its note into the
 * TUI and the same session goes on to a reviewed, verified end; the user typing during the wait
 * takes the turn over, and a signal ends the session as it would without a wait. The window is
 * counted in refused requests, not in time, so a slow claude on a loaded machine cannot close it early.
 */
import { describe, expect } from 'vitest';
import { LIMIT_RESUME_NOTE } from '../../src/loop/limit-resume-note.js';
import { readLog } from '../support/ccc-run.js';
import { expectWaitedTwice, refusingFirst, WAITING_LOGGED } from '../support/limit-replies.js';
import { it } from '../support/fixtures.js';

describe('waiting out the model limits in an interactive session', () => {
  it('a review refused on a limit: the hook waits, the same stop is reviewed again, the verdict stands', async ({ rig }) => {
    const { h, server, world } = await rig.launch(refusingFirst('review', 2), { prepare: (w) => (w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '1') });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 90_000);
    // Refused, refused after 1 s, let through after 2 s more; one agent turn, no review counted for the refusals.
    expectWaitedTwice(server.byKind('review'));
    expect(server.byKind('agent')).toHaveLength(1);
    const log = readLog(world);
    expect(log).toMatch(WAITING_LOGGED);
    expect(log).toMatch(/resuming the review/);
    expect(log).not.toMatch(/review 2\//);
    // The wait is a title the user sees while it lasts.
    expect(h.output().toString('utf8')).toMatch(/ccc: waiting on the model's limit until \d\d:\d\d/);
  }, 120_000);

  it("the agent's turn refused on a limit: ccc waits, types its note, the same session goes on; the work is reviewed and verified", async ({ rig }) => {
    const { h, server, world } = await rig.launch(refusingFirst('agent', 2), { prepare: (w) => (w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '1') });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 90_000);
    const agent = server.byKind('agent');
    expectWaitedTwice(agent);
    // The same conversation: the refused prompt is still there, followed by ccc's note.
    expect(agent[2]!.lastUserText).toContain('build the thing');
    expect(agent[2]!.lastUserText).toContain(LIMIT_RESUME_NOTE);
    // One review, and of the task: the note is not taken for a new one.
    const reviews = server.byKind('review');
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.lastUserText).toMatch(/1\. build the thing/);
    expect(reviews[0]!.lastUserText).not.toMatch(/2\. Your previous turn was interrupted/);
    const log = readLog(world);
    expect(log).toMatch(WAITING_LOGGED);
    expect(log).toMatch(/resuming the agent's turn/);
    // The wait is a title while it lasts; the wait over, the title says the agent works again and
    // the wait's title is not written again over the resumed turn.
    const output = h.output().toString('utf8');
    const waited = output.lastIndexOf("ccc: waiting on the model's limit until");
    const resumed = output.lastIndexOf("ccc: the model's limit is over: the agent works again");
    expect(waited).toBeGreaterThan(-1);
    expect(resumed).toBeGreaterThan(waited);
  }, 120_000);

  it('the user typing during the wait takes the turn over: the wait ends and ccc types nothing', async ({ rig }) => {
    const { h, server, world } = await rig.launch(refusingFirst('agent', 1), { prepare: (w) => (w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '600') });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForOutput(/ccc: waiting on the model's limit until/, 60_000);
    await h.type('my own words');
    await expect.poll(() => readLog(world), { timeout: 30_000 }).toMatch(/the user took the turn over during the wait on the model's limit/);
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 90_000);
    const agent = server.byKind('agent');
    expect(agent).toHaveLength(2);
    expect(agent[1]!.lastUserText).toMatch(/build the thing\s+my own words$/);
    expect(agent.some((r) => r.text.includes(LIMIT_RESUME_NOTE))).toBe(false);
  }, 120_000);

  // A cursor report cut where a read ended, at each of its bytes (`ESC [ 12 ;`, then `40R`, …), then a focus report in
  // two reads. Written apart so that they reach ccc apart (nothing outside shows a read, so the gap is a sleep): the Node
  // proxy hands over each read, the relay its input in batches closed 200 ms after their first byte.
  for (const [path, gapMs] of [
    ['node', 50],
    ['relay', 250],
  ] as const) {
    it(`the terminal's replies during the wait are not the user, also split across reads (${path}): the wait goes on and ccc resumes the turn`, async ({
      rig,
    }) => {
      const { h, server, world } = await rig.launch(refusingFirst('agent', 1), {
        prepare: (w) => {
          w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '8';
          if (path === 'node') w.env.CCC_RELAY = 'off';
        },
      });
      await h.type('build the thing');
      h.press('\r');
      await h.waitForOutput(/ccc: waiting on the model's limit until/, 60_000);
      const report = '\x1b[12;40R';
      const pieces = Array.from({ length: report.length - 1 }, (_, i) => [report.slice(0, i + 1), report.slice(i + 1)]).flat();
      for (const piece of [...pieces, '\x1b[', 'I']) {
        h.press(piece);
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      await expect.poll(() => server.byKind('agent').length, { timeout: 60_000 }).toBe(2);
      expect(server.byKind('agent')[1]!.lastUserText).toContain(LIMIT_RESUME_NOTE);
      expect(readLog(world)).not.toMatch(/the user took the turn over/);
    }, 120_000);
  }

  it('a signal during the wait ends the session as without one: exit 143, nothing sent after it', async ({ rig }) => {
    const { h, server } = await rig.launch(refusingFirst('agent', 1), { prepare: (w) => (w.env.CCC_SUPERVISOR_LIMIT_RETRY_SECONDS = '600') });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForOutput(/ccc: waiting on the model's limit until/, 60_000);
    process.kill(h.pty.pid, 'SIGTERM');
    expect((await h.exited).exitCode).toBe(143);
    expect(server.byKind('agent')).toHaveLength(1);
  }, 120_000);
});
