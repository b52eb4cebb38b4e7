/**
 * The verdict in the terminal's title, with the real claude: claude retitles the terminal while it
 * works and when its turn ends (`✳ Claude Code`), after the verdict was written; ccc writes the
 * verdict again while it is fresh, so the title the terminal is left with is the verdict.
 */
import { describe, expect, it } from 'vitest';
import { supervisedPtyFixture } from '../support/supervised-pty.js';

/** Every OSC 0 or 2 title the terminal got, in order. */
function titles(output: Buffer): string[] {
  return [...output.toString('utf8').matchAll(/\x1b\][02];([^\x07\x1b]*)(?:\x07|\x1b\\)/g)].map((m) => m[1]!);
}

describe.each(['relay', 'node'] as const)('the verdict in the title: %s byte path', (kind) => {
  const fixture = supervisedPtyFixture();

  it("stays the terminal's title after claude's own retitling at the end of its turn", async () => {
    const { h } = await fixture.launch((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'fine' } } : { text: 'agent says done' }), {
      prepare: (world) => {
        if (kind === 'node') world.env.CCC_RELAY = 'off';
      },
    });
    await h.type('build the thing');
    h.press('\r');
    await h.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    const verdict = /^ccc: ✓ review 1 complete/;
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
