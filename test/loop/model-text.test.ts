/**
 * A reviewer's feedback and the agent's answer are the model's text: on the way to a terminal
 * (headless progress on stderr, the answer on stdout) their escape sequences are made inert;
 * `--json` keeps them byte for byte.
 */
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines } from '../support/run-process.js';

/** OSC 52 (write the clipboard), OSC 0 (set the title), SGR 8 (hide text). */
export const HOSTILE_FEEDBACK = 'Fix it.\x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07 \x1b[8mhidden instructions\x1b[0m done';

describe('model text on the terminal', () => {
  async function run(rig: Rig, args: string[]) {
    const { world } = await rig.start((r) =>
      r.kind === 'review'
        ? r.index === 0
          ? { verdict: { completed: false, feedback: HOSTILE_FEEDBACK } }
          : { verdict: { completed: true, feedback: 'ok' } }
        : { text: `answer ${r.index}: ${HOSTILE_FEEDBACK}` },
    );
    return runCcc(world, ['--supervisor', ...args, '-p', 'do it']);
  }

  it('headless progress on stderr shows the feedback with no raw ESC byte', async ({ rig }) => {
    const result = await run(rig, []);
    expect(result.code).toBe(0);
    // Each control character is a space: what is left is visible and inert.
    expect(result.stderr).toMatch(/not complete \(claude, \$[\d.]+, \d+% cached, review: forked\): /);
    expect(result.stderr).toContain('): Fix it. ]52;c;cm0gLXJmIH4=   ]0;pwned   [8mhidden instructions [0m done');
    expect(result.stderr).not.toMatch(/[\x1b\x07\x9b\x9d]/);
    // The agent's own answer on stdout, the same way.
    expect(result.stdout).toContain('answer 0: Fix it. ]52;c;cm0gLXJmIH4=   ]0;pwned');
    expect(result.stdout).not.toMatch(/[\x1b\x07\x9b\x9d]/);
  });

  it('--json carries the feedback byte for byte', async ({ rig }) => {
    const result = await run(rig, ['--json']);
    expect(result.code).toBe(0);
    const verdicts = jsonLines(result.stdout).filter((e) => e.kind === 'verdict' && e.completed === false);
    expect(verdicts.map((v) => v.feedback)).toEqual([HOSTILE_FEEDBACK]);
    expect(result.stdout).toContain(JSON.stringify(`answer 0: ${HOSTILE_FEEDBACK}`)); // the agent's frames, exact
  });
});
