/**
 * The codex checker on the real `codex` binary against the scripted Responses API: each case a
 * review can come to gives the right verdict, evidence and failure, and the project is
 * byte-for-byte unchanged after a review that tried to write (the kernel sandbox refused it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codexChecker } from '../../../src/checkers/codex/codex-checker.js';
import { runPipeline } from '../../../src/checkers/pipeline.js';
import type { Usage } from '../../../src/claude/usage.js';
import { isCccError } from '../../../src/errors.js';
import { codexEnv, needsCodexSandbox, codexSettings, TEST_OPENAI_KEY, writeNodeProject } from '../../support/codex-env.js';
import { projectSnapshot } from '../../support/project-snapshot.js';
import { startResponsesServer, type ResponsesReply, type ResponsesRequest, type ResponsesServer } from '../../support/responses-server.js';
import { checkContext, processesMentioning } from '../check-context.js';

let root: string;
let cwd: string;
let server: ResponsesServer;

beforeAll(needsCodexSandbox, 60_000);
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-codex-')));
  cwd = path.join(root, 'project');
  fs.mkdirSync(cwd);
  fs.mkdirSync(path.join(root, 'home'));
  fs.writeFileSync(path.join(cwd, 'SUPERVISOR.md'), 'CODEX-RULES-4417: check the work with tools.');
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The reviewer runs `commands` first (when any), then answers `verdict`. */
function reviewing(commands: string[], verdict: { completed: boolean; feedback: string }) {
  return (r: ResponsesRequest): ResponsesReply =>
    r.index === 0 && commands.length
      ? { commands, usage: { input_tokens: 3000, cached_tokens: 0 } }
      : { verdict, usage: { input_tokens: 3500, cached_tokens: 3000, output_tokens: 40 } };
}

async function review(
  scenario: (r: ResponsesRequest) => ResponsesReply,
  options: { timeoutSeconds?: number; settings?: Parameters<typeof codexSettings>[1] } = {},
) {
  server = await startResponsesServer(scenario);
  const usage: Usage[] = [];
  const checker = codexChecker({ promptPath: { path: 'SUPERVISOR.md', fromProject: false }, codex: codexSettings(server.url, options.settings) });
  const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), ...codexEnv(path.join(root, 'home'), server.url) };
  const ctx = checkContext(cwd, {
    env,
    userPrompts: ['make add add'],
    lastAssistantMessage: 'ADD-FIXED-2291: add adds now.',
    reportUsage: (u) => usage.push(u as Usage),
  });
  const outcome = runPipeline([{ checker, timeoutSeconds: options.timeoutSeconds ?? 120, reviewer: true }], ctx);
  return { outcome, usage };
}

describe('the codex reviewer, on the real codex', () => {
  it('complete: the verdict comes through the output schema, the test run is its evidence, its tokens its usage (cost unknown)', async () => {
    writeNodeProject(cwd, { addWorks: true });
    const { outcome, usage } = await review(reviewing(['npm test'], { completed: true, feedback: 'add adds; npm test passes' }));
    const { verdict, checker } = await outcome;
    expect(checker).toBe('codex');
    expect(verdict).toMatchObject({ completed: true, feedback: 'add adds; npm test passes' });
    expect(verdict.evidence).toEqual([{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 1 }]);
    // What the model was asked: the task, the agent's claim, SUPERVISOR.md, in a read-only sandbox, with the verdict's schema.
    const first = server.requests[0]!;
    expect(first.authorization).toBe(`Bearer ${TEST_OPENAI_KEY}`);
    expect(first.text).toContain('make add add');
    expect(first.text).toContain('ADD-FIXED-2291');
    expect(first.text).toContain('CODEX-RULES-4417');
    expect(first.text).toMatch(/sandbox_mode` is `read-only`/);
    expect(first.body.text?.format).toMatchObject({ type: 'json_schema', strict: true, schema: { required: ['completed', 'feedback'] } });
    expect(server.requests[1]!.toolOutputs.join('\n')).toMatch(/# pass 1/);
    // Two requests: 3000 and 3500 input tokens, 3000 of them read from the cache; 20 and 40 out.
    expect(usage).toEqual([
      { input_tokens: 3500, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0, output_tokens: 60, cost_usd: 0, unpriced_tokens: 6560 },
    ]);
  }, 120_000);

  it('with prices, the same tokens have a cost', async () => {
    writeNodeProject(cwd, { addWorks: true });
    const { outcome, usage } = await review(reviewing([], { completed: true, feedback: 'ok' }), {
      settings: { price: { input: 2, cached_input: 0.5, output: 10 } },
    });
    await outcome;
    // 500 uncached at $2/M, 3000 cached at $0.5/M, 40 out at $10/M.
    expect(usage).toEqual([{ input_tokens: 500, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0, output_tokens: 40, cost_usd: 0.0029 }]);
  }, 120_000);

  it('not complete: its feedback is the verdict, and a failing test run is evidence with its exit code', async () => {
    writeNodeProject(cwd, { addWorks: false });
    const { outcome } = await review(reviewing(['npm test'], { completed: false, feedback: 'test adds fails: add(2, 3) is -1' }));
    const { verdict } = await outcome;
    expect(verdict).toMatchObject({ completed: false, feedback: 'test adds fails: add(2, 3) is -1' });
    // A failing run keeps the test its runner named (node 20 names a failing file by its absolute path).
    expect(verdict.evidence).toEqual([
      { command: 'npm test', exit_code: 1, failed: 1, failures: [expect.stringMatching(/test\/\w+\.test\.js: 'test failed'$/)] },
    ]);
    expect(server.requests[1]!.toolOutputs.join('\n')).toMatch(/# fail 1/);
  }, 120_000);

  it('a try to write is refused by the kernel sandbox: the project is byte-for-byte unchanged', async () => {
    writeNodeProject(cwd, { addWorks: false });
    const before = projectSnapshot(cwd);
    const writes = [
      "printf 'exports.add = (a, b) => a + b;\\n' > add.js",
      'touch NEW.md',
      'rm package.json',
      'mkdir build',
      'touch /tmp/ccc-codex-escape',
      'rm -f test/add.test.js',
    ];
    const { outcome } = await review(reviewing(writes, { completed: false, feedback: 'add is wrong' }));
    expect((await outcome).verdict.completed).toBe(false);
    const outputs = server.requests[1]!.toolOutputs;
    expect(outputs).toHaveLength(writes.length);
    // Each refused by the kernel, except `rm -f`, which codex itself rejects before it runs.
    expect(outputs.slice(0, -1).every((o) => /Read-only file system/.test(o))).toBe(true);
    expect(outputs.at(-1)).toMatch(/rm -f style commands are not permitted/);
    expect(projectSnapshot(cwd)).toEqual(before);
    expect(fs.existsSync('/tmp/ccc-codex-escape')).toBe(false);
  }, 120_000);

  it('a hang: the review fails on its time limit and no codex is left running', async () => {
    writeNodeProject(cwd, { addWorks: true });
    const { outcome } = await review(() => ({ hang: true }), { timeoutSeconds: 5 });
    const error: unknown = await outcome.catch((e: unknown) => e);
    expect(isCccError(error, 'CHECKER_TIMEOUT')).toBe(true);
    await expect.poll(() => processesMentioning(server.url), { timeout: 10_000 }).toEqual([]);
  }, 120_000);

  it('an API error: the review fails naming it, not to be waited out', async () => {
    writeNodeProject(cwd, { addWorks: true });
    const { outcome } = await review(() => ({
      error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key', type: 'invalid_request_error' },
    }));
    const error: unknown = await outcome.catch((e: unknown) => e);
    expect(isCccError(error, 'CHECKER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/the codex reviewer could not reach the model: .*401 Unauthorized: Incorrect API key provided/);
    expect((error as { data: { model_failure?: string } }).data.model_failure).toBe('unreachable');
  }, 120_000);

  it('a rate limit: the review fails as rate limited, which the loop waits out', async () => {
    writeNodeProject(cwd, { addWorks: true });
    const { outcome } = await review(() => ({
      error: { status: 429, message: 'Rate limit reached for requests', code: 'rate_limit_exceeded', type: 'requests', headers: { 'retry-after': '0' } },
    }));
    const error: unknown = await outcome.catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/the codex reviewer was rate limited by the model's API: .*429 Too Many Requests/);
    expect((error as { data: { model_failure?: string } }).data.model_failure).toBe('rate-limited');
  }, 120_000);
});
