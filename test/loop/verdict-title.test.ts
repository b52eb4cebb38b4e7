/**
 * The verdict in the terminal's title, with the real claude. Claude retitles the terminal while it
 * works and when its turn ends (test/claude/terminal-title.test.ts); ccc runs it with its titles
 * off, so the title is ccc's alone: the verdict stays there while the agent works on the feedback
 * and after the work is confirmed, until the user's next prompt (`ccc: agent working`). A user who
 * keeps claude's titles on gets ccc's verdict written again while it is fresh, so that the title the
 * terminal is left with is still the verdict.
 */
import { describe, expect } from 'vitest';
import type { Reply } from '../support/model-server.js';
import { it } from '../support/fixtures.js';

/** Every OSC 0 or 2 title the terminal got, in order. */
function titles(output: Buffer): string[] {
  return [...output.toString('utf8').matchAll(/\x1b\][02];([^\x07\x1b]*)(?:\x07|\x1b\\)/g)].map((m) => m[1]!);
}

describe.each(['relay', 'node'] as const)('the verdict in the title: %s byte path', (kind) => {
  it("is ccc's alone: held through the agent's turn on the feedback and after the completion, until the next prompt", async ({ rig }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { h } = await rig.launch(
      (r): Reply =>
        r.kind === 'review'
          ? { verdict: { completed: r.index > 0, feedback: r.index > 0 ? 'fine' : 'add the test' } }
          : // The agent's turn on the feedback lasts until the test has seen the title it works under.
            { text: `agent answer ${r.index}`, ...(r.index === 1 ? { until: held } : {}) },
      {
        prepare: (world) => {
          if (kind === 'node') world.env.CCC_RELAY = 'off';
        },
      },
    );
    await h.type('build the thing');
    h.press('\r');
    const blocked = /^ccc: ✗ review 1: feedback sent/;
    await expect.poll(() => titles(h.output()).at(-1), { timeout: 60_000 }).toMatch(blocked);
    // The agent is at work on the feedback (its request is held open) and the title still says why.
    await h.waitForScreen(/review 1 \(claude\): not complete/, 30_000);
    expect(titles(h.output()).at(-1)).toMatch(blocked);
    release();
    const done = /^ccc: ⚠ review 2 complete \(unverified/;
    await expect.poll(() => titles(h.output()).at(-1), { timeout: 60_000 }).toMatch(done);
    await h.waitForScreen(/review 2 \(claude\): complete, unverified/, 30_000);
    // claude wrote no title of its own, in the whole session.
    expect(titles(h.output()).filter((t) => !t.startsWith('ccc:'))).toEqual([]);
    const before = titles(h.output()).length;
    await h.type('and now the docs');
    h.press('\r');
    // The next prompt takes the verdict down: the first other title after it is the agent at work
    // (the new task's own review follows; its title is not this test's business).
    await expect
      .poll(
        () =>
          titles(h.output())
            .slice(before)
            .find((t) => !done.test(t)),
        { timeout: 60_000 },
      )
      .toBe('ccc: agent working');
  });

  it("with claude's own titles kept on, the verdict is written again after claude's retitling at the end of its turn", async ({ rig }) => {
    const { h } = await rig.launch((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'fine' } } : { text: 'agent says done' }), {
      prepare: (world) => {
        world.env.CLAUDE_CODE_DISABLE_TERMINAL_TITLE = '0';
        if (kind === 'node') world.env.CCC_RELAY = 'off';
      },
    });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    const verdict = /^ccc: ⚠ review 1 complete \(unverified/;
    // claude's title came after the verdict's first write, and the verdict came back after it.
    await expect
      .poll(
        () => {
          const all = titles(h.output());
          const first = all.findIndex((t) => verdict.test(t));
          const claudes = all.slice(first + 1).filter((t) => !t.startsWith('ccc:'));
          return { claudeRetitled: first >= 0 && claudes.length > 0, last: all.at(-1) };
        },
        { timeout: 20_000 },
      )
      .toEqual({ claudeRetitled: true, last: expect.stringMatching(verdict) });
  });
});
