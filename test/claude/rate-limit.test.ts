/**
 * What the real claude (2.1.330) does when the model answers 429 or a request does not fit the
 * context window, against a scripted server that sends the headers the real API sends
 * (`retry-after`, `anthropic-ratelimit-*-reset`). The facts a wait on a limit has to build on
 * (docs/design/claude-facts.md, "Rate limits and the context window"):
 * - claude waits `retry-after` itself between its retries when it is short, and gives up at once,
 *   without a retry, when it is long (an hour: a usage window);
 * - none of its outputs carries the reset time: not the `api_retry` frames, not the result frame,
 *   not the StopFailure hook's input (`error: "rate_limit"` and the message only);
 * - in print mode claude does not wait for its StopFailure hook: the hook is killed as claude exits;
 * - a request over the window ends with `terminal_reason: "prompt_too_long"` and claude's own
 *   explanation, after one request: a single exchange is not compacted.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { modelFailure } from '../../src/claude/api-error.js';
import { runClaudePrint } from '../../src/claude/claude-print.js';
import type { Frame } from '../../src/frames/frame.js';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { rateLimited } from '../support/limit-replies.js';
import type { Reply } from '../support/model-server.js';

const args = ['-p', '--output-format', 'stream-json', '--verbose'];

describe('the real claude on rate limits and full context windows', () => {
  async function run(rig: Rig, reply: () => Reply, env: NodeJS.ProcessEnv, extraArgs: string[] = []) {
    const server = await rig.server(reply);
    const world = rig.world({ server });
    const frames: Frame[] = [];
    const result = await runClaudePrint({
      command: claudeBin,
      args: [...args, ...extraArgs],
      stdin: 'hi',
      cwd: world.cwd,
      env: { ...world.env, ...env },
      onFrame: (f) => frames.push(f),
    });
    return { result, frames, server };
  }

  it('a short retry-after: claude waits it out between its own retries, then gives up with a rate_limit result that has no reset time', async ({ rig }) => {
    const { result, frames, server } = await run(rig, () => rateLimited(1), { CLAUDE_CODE_MAX_RETRIES: '1' });
    const retries = frames.filter((f) => f.type === 'system' && f.subtype === 'api_retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ error_status: 429, error: 'rate_limit' });
    expect(retries[0]!.retry_delay_ms).toBeGreaterThanOrEqual(1000); // retry-after honoured
    expect(server.requests).toHaveLength(2);
    expect(result.exitCode).toBe(1);
    expect(result.resultFrame).toMatchObject({ is_error: true, api_error_status: 429, api_error_type: 'rate_limit_error', terminal_reason: 'api_error' });
    const assistant = frames.find((f) => f.type === 'assistant');
    expect(assistant).toMatchObject({ error: 'rate_limit', is_api_error_message: true, api_error_status: 429 });
    expect(modelFailure(result)?.kind).toBe('rate-limited');
    // The reset time the server sent is nowhere in what claude reports.
    const said = JSON.stringify(frames);
    expect(said).not.toMatch(/ratelimit|reset|retry-after/i);
  });

  it('a long retry-after (an hour): no retry at all, one request, the same result', async ({ rig }) => {
    const { result, frames, server } = await run(rig, () => rateLimited(3600), { CLAUDE_CODE_MAX_RETRIES: '10' });
    expect(server.requests).toHaveLength(1);
    expect(frames.filter((f) => f.type === 'system' && f.subtype === 'api_retry')).toHaveLength(0);
    expect(result.resultFrame).toMatchObject({ is_error: true, api_error_status: 429, terminal_reason: 'api_error' });
  });

  it('the StopFailure hook is told "rate_limit" and the message, not when the limit resets', async ({ rig }) => {
    const server = await rig.server(() => rateLimited(3600));
    const world = rig.world({ server });
    const dump = path.join(world.root, 'stop-failure.json');
    const hook = path.join(world.root, 'stop-failure.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ncat > '${dump}'\n`, { mode: 0o755 });
    const settings = { hooks: { StopFailure: [{ hooks: [{ type: 'command', command: hook }] }] } };
    // claude ends a StopFailure hook when it exits (the next test), on a loaded machine before the
    // hook read its input. With stream-json input claude waits for the next message after a turn,
    // so stdin is held open until the hook has written all it read: nothing here races claude's exit.
    const claude = spawn(claudeBin, [...args, '--input-format', 'stream-json', '--settings', JSON.stringify(settings)], {
      cwd: world.cwd,
      env: world.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = once(claude, 'exit');
    try {
      claude.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }) + '\n');
      await expect.poll(() => readJson(dump), { timeout: 30_000 }).toBeDefined();
    } finally {
      claude.stdin.end();
      await exited;
    }
    const input = readJson(dump)!;
    expect(input).toMatchObject({ hook_event_name: 'StopFailure', error: 'rate_limit' });
    expect(input.last_assistant_message).toMatch(/^API Error: Request rejected \(429\)/);
    expect(JSON.stringify(input)).not.toMatch(/reset|retry/i);
  });

  it('print mode does not wait for the StopFailure hook: the hook is killed when claude exits', async ({ rig }) => {
    const server = await rig.server(() => rateLimited(3600));
    const world = rig.world({ server });
    const pidFile = path.join(world.root, 'hook.pid');
    const hook = path.join(world.root, 'stop-failure.sh');
    // `exec sleep`: the pid written is the one that would outlive claude if it were left to run; its
    // argument, unique to this run, finds it even when it had no time to write that pid.
    const sleepFor = `30.${process.pid}`;
    fs.writeFileSync(hook, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep ${sleepFor}\n`, { mode: 0o755 });
    const settings = { hooks: { StopFailure: [{ hooks: [{ type: 'command', command: hook }] }] } };
    await runClaudePrint({ command: claudeBin, args: [...args, '--settings', JSON.stringify(settings)], stdin: 'hi', cwd: world.cwd, env: world.env });
    // On a loaded machine claude can end the hook before its first line ran (then no pid file):
    // what claude promises either way is that nothing of the hook outlives it.
    await expect.poll(() => processesRunning(['sleep', sleepFor]), { timeout: 5000 }).toEqual([]);
    if (fs.existsSync(pidFile)) await expect.poll(() => isAlive(Number(fs.readFileSync(pidFile, 'utf8'))), { timeout: 5000 }).toBe(false);
  });

  it('a request over the context window: one request, terminal_reason prompt_too_long, claude explains it', async ({ rig }) => {
    const { result, server } = await run(
      rig,
      () => ({ error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } }),
      { CLAUDE_CODE_MAX_RETRIES: '2' },
    );
    expect(server.requests).toHaveLength(1);
    expect(result.resultFrame).toMatchObject({ is_error: true, api_error_status: 400, terminal_reason: 'prompt_too_long' });
    expect(result.resultText).toMatch(/^Prompt is too long/);
    expect(modelFailure(result)?.kind).toBe('context-full');
  });
});

/** The JSON object in `file`, or undefined while it is missing or still being written. */
function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The live processes whose command line is exactly `argv`. */
function processesRunning(argv: string[]): number[] {
  const wanted = argv.join('\0') + '\0';
  return fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return fs.readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted && isAlive(Number(name)) ? [Number(name)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie has ended
  } catch {
    return false;
  }
}
