/**
 * What the real claude (2.1.330) does in its TUI when the model refuses the agent's own turn on a
 * limit, which the interactive wait on the agent's limits is built on (docs/design/claude-facts.md, "A
 * turn refused in the TUI"):
 * - no Stop hook fires; the StopFailure hook does, told the session, the transcript and the error's
 *   kind (`rate_limit` for a 429, `server_error` for a 529, whose message names the status), and its
 *   answer is ignored: a block sends nothing more to the model;
 * - the transcript records a synthetic assistant entry (`isApiErrorMessage`, `error`,
 *   `apiErrorStatus`), and the TUI waits for the user ("Resend your message to try again");
 * - a message written into the pty as a bracketed paste and its Enter, in one chunk, is submitted as
 *   a prompt, and the request it sends holds the refused prompt and the new one in one user message:
 *   the same session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { LIMIT_RESUME_NOTE } from '../../src/loop/limit-resume-note.js';
import { rateLimited } from '../support/limit-replies.js';
import type { Reply } from '../support/model-server.js';

const overloaded: Reply = { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };

describe("the real claude's TUI on an agent turn the model refuses on a limit", () => {
  /** A TUI whose first agent request gets `refusal`; Stop and StopFailure hooks record their input, the latter answering a block. */
  async function refusedTurn(rig: Rig, refusal: Reply) {
    const server = await rig.server((r) => (r.kind === 'agent' && r.index === 0 ? refusal : { text: `answer ${r.index}` }));
    const world = rig.world({ server, env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
    const hook = (name: string, answer = '') => {
      const file = path.join(world.root, `${name}.sh`);
      fs.writeFileSync(file, `#!/bin/sh\ncat >> '${world.root}/${name}.json'\n${answer}`, { mode: 0o755 });
      return [{ hooks: [{ type: 'command', command: file }] }];
    };
    const block = `echo '{"decision":"block","reason":"keep going"}'\n`;
    const settings = { hooks: { Stop: hook('stop'), StopFailure: hook('stop-failure', block) } };
    const h = rig.pty(claudeBin, ['--settings', JSON.stringify(settings)], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);
    await h.type('build the thing');
    h.press('\r');
    const failure = `${world.root}/stop-failure.json`;
    await expect.poll(() => fs.existsSync(failure) && fs.readFileSync(failure, 'utf8').trim().endsWith('}'), { timeout: 60_000 }).toBe(true);
    await h.waitForScreen(/Resend your message to try again/);
    return {
      server,
      world,
      h,
      input: JSON.parse(fs.readFileSync(failure, 'utf8')) as Record<string, unknown>,
      stopFired: () => fs.existsSync(`${world.root}/stop.json`),
    };
  }

  it('a 429: StopFailure with "rate_limit", no Stop, the block ignored; the transcript has the error entry; a message typed in one chunk resumes the session', async ({
    rig,
  }) => {
    const { server, world, h, input, stopFired } = await refusedTurn(rig, rateLimited(3600));
    expect(input).toMatchObject({ hook_event_name: 'StopFailure', error: 'rate_limit', cwd: world.cwd });
    expect(input.last_assistant_message).toMatch(/^API Error: Request rejected \(429\)/);
    expect(stopFired()).toBe(false);
    // Written around the hook's start, not always before it.
    const errorEntry = () =>
      fs
        .readFileSync(input.transcript_path as string, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((e) => e.isApiErrorMessage === true);
    await expect.poll(errorEntry).toBeDefined();
    const entry = errorEntry();
    expect(entry).toMatchObject({ type: 'assistant', error: 'rate_limit', apiErrorStatus: 429, apiErrorType: 'rate_limit_error', sessionId: input.session_id });

    // ccc's note as it types it: a bracketed paste and Enter, in one write.
    h.press(`\x1b[200~${LIMIT_RESUME_NOTE}\x1b[201~\r`);
    await h.waitForScreen(/answer 1/);
    const agent = server.byKind('agent');
    expect(agent).toHaveLength(2); // the StopFailure hook's block sent nothing; the typed message did
    expect(agent[1]!.lastUserText).toMatch(/build the thing\s+Your previous turn was interrupted/);
    expect(agent[1]!.lastUserText.trim().endsWith(LIMIT_RESUME_NOTE)).toBe(true);
    await expect.poll(stopFired).toBe(true); // the turn that got through ends with the Stop hook
  }, 120_000);

  it('a 529: StopFailure with "server_error", the status only in the message', async ({ rig }) => {
    const { input, stopFired } = await refusedTurn(rig, overloaded);
    expect(input).toMatchObject({ hook_event_name: 'StopFailure', error: 'server_error' });
    expect(input.last_assistant_message).toMatch(/^API Error: 529 Overloaded/);
    expect(stopFired()).toBe(false);
  }, 120_000);
});
