/**
 * What the real claude (2.1.330) does when a resumed session's request is over the model's context
 * window (HTTP 400, `invalid_request_error`, "prompt is too long: N tokens > M maximum"), as a
 * forked review (`--fork-session --resume <id> -p`) or the headless agent's next turn
 * (`--resume <id> -p`) meets it (docs/design/claude-facts.md, "A resumed session over the window"):
 * - claude compacts the conversation itself: it sends summarization requests (the conversation up
 *   to the new message, with its compaction instructions appended, never the new message), streams
 *   `system`/`status` frames (`compacting`, then `compact_result`), and on success a
 *   `compact_boundary` frame; then it retries the request once, on the summary;
 * - when the compaction fails too, nothing is retried again: exit 1, nothing on stderr, a synthetic
 *   assistant frame with `error: "invalid_request"`, and a result frame with subtype `success` but
 *   `is_error: true`, `api_error_status: 400`, `terminal_reason: "prompt_too_long"` and the text
 *   "Prompt is too long".
 * A single exchange (nothing to compact) fails at once: test/claude/rate-limit.test.ts.
 */
import { describe, expect } from 'vitest';
import { modelFailure } from '../../src/claude/api-error.js';
import { runClaudePrint } from '../../src/claude/claude-print.js';
import type { Frame } from '../../src/frames/frame.js';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';

const args = ['-p', '--output-format', 'stream-json', '--verbose'];
const tooLong: Reply = { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
const NEW_MESSAGE = 'NEW-MESSAGE-5150: please review the work.';
/** Words of claude's compaction instructions (the summarization request's last user message). */
const COMPACTION = /<summary>/;

describe('the real claude on a resumed session over the context window', () => {
  /** A session of two exchanges, then `resume` with NEW_MESSAGE while the server answers the first `overflowing` requests 400. */
  async function overflow(rig: Rig, resume: string[], overflowing: number) {
    let failing = false;
    let failed = 0;
    const server = await rig.server(() => {
      if (!failing) return { text: 'working on it', usage: { input_tokens: 150_000, output_tokens: 100 } };
      if (failed < overflowing) {
        failed++;
        return tooLong;
      }
      return { text: 'SUMMARY-OR-ANSWER-77' };
    });
    const world = rig.world({ server });
    const run = async (extra: string[], stdin: string) => {
      const frames: Frame[] = [];
      const result = await runClaudePrint({
        command: claudeBin,
        args: [...args, ...extra],
        stdin,
        cwd: world.cwd,
        env: world.env,
        onFrame: (f) => frames.push(f),
      });
      return { result, frames };
    };
    const first = await run([], 'build the thing');
    const sessionId = first.result.sessionId!;
    await run(['--resume', sessionId], 'and test it');
    const before = server.requests.length;
    failing = true;
    const after = await run([...resume, sessionId], NEW_MESSAGE);
    const requests = server.requests.slice(before);
    const carries = (r: RecordedRequest) => r.lastUserText.includes(NEW_MESSAGE);
    return { ...after, requests, withMessage: requests.filter(carries), summarizing: requests.filter((r) => !carries(r)) };
  }

  it('a fork over the window whose compaction fails: one request with the message, summarization attempts, then exit 1 with prompt_too_long', async ({
    rig,
  }) => {
    const { result, frames, requests, withMessage, summarizing } = await overflow(rig, ['--fork-session', '--no-session-persistence', '--resume'], Infinity);
    expect(withMessage).toHaveLength(1);
    expect(requests[0]).toBe(withMessage[0]);
    expect(summarizing.length).toBeGreaterThan(0);
    for (const r of summarizing) expect(r.lastUserText).toMatch(COMPACTION);
    const statuses = frames.filter((f) => f.type === 'system' && f.subtype === 'status');
    expect(statuses[0]).toMatchObject({ status: 'compacting' });
    expect(statuses.at(-1)).toMatchObject({ compact_result: 'failed', compact_error: 'exhausted' });
    expect(frames.some((f) => f.type === 'system' && f.subtype === 'compact_boundary')).toBe(false);
    expect(frames.find((f) => f.type === 'assistant')).toMatchObject({
      error: 'invalid_request',
      api_error_status: 400,
      api_error_type: 'invalid_request_error',
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderrTail).toBe('');
    expect(result.resultFrame).toMatchObject({
      subtype: 'success',
      is_error: true,
      api_error_status: 400,
      api_error_type: 'invalid_request_error',
      terminal_reason: 'prompt_too_long',
      result: 'Prompt is too long',
    });
    expect(modelFailure(result)?.kind).toBe('context-full');
  });

  it('a fork over the window whose compaction succeeds: the message is sent again once, on the summary, and the run succeeds', async ({ rig }) => {
    const { result, frames, withMessage, summarizing } = await overflow(rig, ['--fork-session', '--no-session-persistence', '--resume'], 1);
    expect(withMessage).toHaveLength(2);
    expect(summarizing.length).toBeGreaterThan(0);
    for (const r of summarizing) expect(r.lastUserText).toMatch(COMPACTION);
    expect(withMessage[1]!.text).toContain('SUMMARY-OR-ANSWER-77'); // the retry reads the summary
    expect(withMessage[1]!.text).toContain('This session is being continued from a previous conversation');
    expect(frames.find((f) => f.type === 'system' && f.subtype === 'compact_boundary')).toMatchObject({ compact_metadata: { trigger: 'auto' } });
    expect(result.exitCode).toBe(0);
    expect(result.resultFrame).toMatchObject({ is_error: false });
  });

  it("the headless agent's resumed turn over the window: compacted and sent again the same way", async ({ rig }) => {
    const { result, frames, withMessage, summarizing } = await overflow(rig, ['--resume'], 1);
    expect(withMessage).toHaveLength(2);
    expect(summarizing.length).toBeGreaterThan(0);
    expect(frames.some((f) => f.type === 'system' && f.subtype === 'compact_boundary')).toBe(true);
    expect(result.exitCode).toBe(0);
  });
});
