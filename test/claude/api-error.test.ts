/**
 * What the real claude reports when the model API fails, and the message ccc makes of it
 * (src/claude/api-error.ts). Pinned on 2.1.330: after its retries claude exits 1 with an empty
 * stderr; one `system`/`api_retry` frame per retry; the last `result` frame has `is_error: true`,
 * `api_error_status`, `terminal_reason: "api_error"` and the text "API Error: …". Retries:
 * CLAUDE_CODE_MAX_RETRIES (default 10, with a growing wait: minutes, for 401 too), but for 529 at
 * most 2. Tests that want a short failure set CLAUDE_CODE_MAX_RETRIES low (0: one request).
 */
import net from 'node:net';
import { describe, expect } from 'vitest';
import { modelFailure, modelFailureSentence } from '../../src/claude/api-error.js';

const modelApiError = (result: Parameters<typeof modelFailure>[0]) => modelFailure(result)?.text;
import { runClaudePrint } from '../../src/claude/claude-print.js';
import type { Frame } from '../../src/frames/frame.js';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';

const args = ['-p', '--output-format', 'stream-json', '--verbose'];

describe('the real claude on model API errors', () => {
  async function runAgainst(rig: Rig, status: number, message: string, env: NodeJS.ProcessEnv = {}) {
    const server = await rig.server(() => ({ error: { status, message } }));
    const world = rig.world({ server });
    const frames: Frame[] = [];
    const result = await runClaudePrint({
      command: claudeBin,
      args,
      stdin: 'hi',
      cwd: world.cwd,
      env: { ...world.env, ...env },
      onFrame: (f) => frames.push(f),
    });
    return { server, result, frames };
  }

  it('529: exit 1, nothing on stderr, two retries (even with CLAUDE_CODE_MAX_RETRIES=10), then an is_error result frame with the status', async ({ rig }) => {
    const { server, result, frames } = await runAgainst(rig, 529, 'Overloaded', { CLAUDE_CODE_MAX_RETRIES: '10' });
    expect(result.exitCode).toBe(1);
    expect(result.stderrTail).toBe('');
    expect(frames.filter((f) => f.type === 'system' && f.subtype === 'api_retry').map((f) => f.error_status)).toEqual([529, 529]);
    expect(result.resultFrame).toMatchObject({ is_error: true, api_error_status: 529, terminal_reason: 'api_error' });
    expect(result.resultText).toMatch(/^API Error: Repeated 529 Overloaded errors/);
    expect(server.requests).toHaveLength(3);
    expect(modelApiError(result)).toMatch(/^529 Overloaded \(after 2 retries\): Repeated 529 Overloaded errors/);
  });

  it('529 with CLAUDE_CODE_MAX_RETRIES=0: one request, no retry, and a different text', async ({ rig }) => {
    const { server, result } = await runAgainst(rig, 529, 'Overloaded', { CLAUDE_CODE_MAX_RETRIES: '0' });
    expect(server.requests).toHaveLength(1);
    expect(result.apiRetries).toBe(0);
    expect(modelApiError(result)).toMatch(/^529 Overloaded: 529 Overloaded\. This is a server-side issue/);
  });

  it('honours CLAUDE_CODE_MAX_RETRIES for other statuses (500 with 1: two requests)', async ({ rig }) => {
    const { server, result } = await runAgainst(rig, 500, 'boom', { CLAUDE_CODE_MAX_RETRIES: '1' });
    expect(server.requests).toHaveLength(2);
    expect(modelApiError(result)).toMatch(/^500 Internal Server Error \(after 1 retry\): 500 boom/);
  });

  it('a model that cannot be reached at all is reported too', async ({ rig }) => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const world = rig.world({ modelUrl: `http://127.0.0.1:${port}` });
    const result = await runClaudePrint({ command: claudeBin, args, stdin: 'hi', cwd: world.cwd, env: { ...world.env, CLAUDE_CODE_MAX_RETRIES: '1' } });
    expect(result.exitCode).toBe(1);
    expect(result.resultFrame?.is_error).toBe(true);
    expect(result.resultFrame?.api_error_status).toBeNull();
    expect(modelApiError(result)).toMatch(/^no connection \(after 1 retry\): Connection refused.*ECONNREFUSED/);
  });
});

describe('modelFailure', () => {
  const frame = (fields: Record<string, unknown>) => ({ resultFrame: { type: 'result', ...fields } as Frame, apiRetries: 0 });

  it('is undefined for a run that did not end on an API error', () => {
    expect(modelApiError({ apiRetries: 0 })).toBeUndefined();
    expect(modelApiError(frame({ is_error: false, result: 'done' }))).toBeUndefined();
    expect(modelApiError(frame({ is_error: true, result: 'max turns reached' }))).toBeUndefined();
  });

  it("names the status, counts the retries, keeps claude's own explanation", () => {
    expect(modelApiError({ ...frame({ is_error: true, api_error_status: 401, result: 'API Error: 401 invalid x-api-key' }), apiRetries: 10 })).toBe(
      '401 Unauthorized (after 10 retries): 401 invalid x-api-key',
    );
    expect(modelApiError(frame({ is_error: true, terminal_reason: 'api_error', result: 'API Error: Connection error.' }))).toBe(
      'no connection: Connection error.',
    );
  });

  it('says a request over the context window as what it is, not as a model out of reach', () => {
    const tooLong = frame({
      is_error: true,
      api_error_status: 400,
      terminal_reason: 'prompt_too_long',
      result: 'Prompt is too long · the request is ~250000 tokens (limit 200000)',
    });
    const failure = modelFailure(tooLong)!;
    expect(failure.kind).toBe('context-full');
    expect(modelFailureSentence('reviewer', failure)).toMatch(/^the review does not fit the model's context window: .*400 Bad Request: Prompt is too long/);
    expect(modelFailureSentence('agent', failure)).toMatch(/^the agent's conversation no longer fits the model's context window .*\/compact/);
    expect(modelFailureSentence('agent', failure)).not.toMatch(/could not reach/);
  });

  it('says a rate limit as one, and only the rest as a model out of reach', () => {
    const limited = modelFailure(
      frame({ is_error: true, api_error_status: 429, terminal_reason: 'api_error', result: 'API Error: Request rejected (429) · slow down' }),
    )!;
    expect(limited.kind).toBe('rate-limited');
    expect(modelFailureSentence('agent', limited)).toBe(
      "the agent was rate limited by the model's API: 429 Too Many Requests: Request rejected (429) · slow down",
    );
    const down = modelFailure(frame({ is_error: true, api_error_status: 500, result: 'API Error: boom' }))!;
    expect(modelFailureSentence('reviewer', down)).toBe('the reviewer could not reach the model: 500 Internal Server Error: boom');
  });
});
