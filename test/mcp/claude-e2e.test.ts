/**
 * End to end: the real `claude` starts `ccc mcp` from --mcp-config, the scripted model calls
 * `mcp__ccc__self_test`, and the tool's SelfTestResult reaches the model server as a tool_result;
 * registered with `claude mcp add`, a `collect_feedback` question is answered on the page that
 * `ccc sessions` points to, and the answer reaches the model.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import type { RecordedRequest } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';
import { isAlive, until } from './support/mcp-process.js';

/**
 * The tool result in a request, wherever it is: when an MCP server connects after claude's first
 * request, claude 2.1.330 puts a "deferred tools are now available" message after the tool result
 * (pinned in test/claude/mcp-server-log.test.ts), so it is not always the last message.
 */
function toolResultOf(request: RecordedRequest): { content?: unknown; is_error?: boolean } | undefined {
  for (const message of request.body.messages) {
    if (!Array.isArray(message.content)) continue;
    const block = message.content.find((b) => b.type === 'tool_result');
    if (block) return block;
  }
  return undefined;
}

describe('ccc mcp under the real claude', () => {
  it("answers the model's self_test call and the SelfTestResult reaches the model", async ({ rig }) => {
    const server = await rig.server((request) =>
      toolResultOf(request) ? { text: 'The self test passed.' } : { toolUse: { name: 'mcp__ccc__self_test', input: {} } },
    );
    const world = rig.world({ server });
    const configDir = path.join(world.root, 'ccc-config');
    const mcpConfig = path.join(world.root, 'mcp.json');
    fs.writeFileSync(
      mcpConfig,
      JSON.stringify({ mcpServers: { ccc: { command: process.execPath, args: [cccBin, 'mcp'], env: { CCC_CONFIG_DIR: configDir } } } }),
    );

    const run = await runProcess(
      claudeBin,
      [
        '-p',
        'Run the ccc self test.',
        '--mcp-config',
        mcpConfig,
        '--strict-mcp-config',
        '--allowedTools',
        'mcp__ccc__self_test',
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      { cwd: world.cwd, env: world.env, timeoutMs: 90_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const frames = jsonLines(run.stdout);
    const init = frames.find((f) => f.type === 'system' && f.subtype === 'init') as { mcp_servers?: Array<{ name: string; status: string }> };
    expect(init.mcp_servers).toContainEqual(expect.objectContaining({ name: 'ccc', status: 'connected' }));
    expect(frames.find((f) => f.type === 'result')).toMatchObject({ result: 'The self test passed.' });

    const agentRequests = server.byKind('agent');
    // claude 2.1 offers MCP tools as "deferred tools" named in the prompt (schemas behind ToolSearch),
    // not in `tools`; a direct call with valid input still runs.
    const toolTurn = agentRequests.find((r) => toolResultOf(r))!;
    for (const name of ['mcp__ccc__self_test', 'mcp__ccc__supervisor_status', 'mcp__ccc__collect_feedback']) expect(toolTurn.text).toContain(name);
    const toolResult = toolResultOf(toolTurn)!;
    expect(toolResult.is_error).toBeFalsy();
    const text =
      typeof toolResult.content === 'string' ? toolResult.content : (toolResult.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    const selfTest = JSON.parse(text) as { health: Record<string, { status: string; pid: number }>; summary: string };
    expect(selfTest.health.worker!.status).toBe('ok');
    expect(selfTest.health.database!.status).toBe('ok');
    expect(selfTest.summary).toBe('All checks are ok: supervisor, worker, web server and database.');
    expect(fs.existsSync(path.join(configDir, 'ccc', 'mcp.jsonl'))).toBe(true);
    // When claude exits, the server and its worker go too: nothing is left running.
    await until(() => !isAlive(selfTest.health.supervisor!.pid) && !isAlive(selfTest.health.worker!.pid), 'ccc mcp and its worker to exit');
  });

  it('collect_feedback under `claude mcp add`: ccc sessions gives the page URL, and the answer given there reaches the model', async ({ rig }) => {
    const QUESTION = 'QUESTION-61: SQLite or Postgres?';
    const ANSWER = 'ANSWER-61: SQLite, it is a single-user tool';
    const server = await rig.server((request) =>
      toolResultOf(request)
        ? { text: 'Going with the answer.' }
        : { toolUse: { name: 'mcp__ccc__collect_feedback', input: { question: QUESTION, timeout_seconds: 120 } } },
    );
    // A claude this test leaves running (it failed before claude ended) goes with the world.
    const w = rig.world({ server });
    // As docs/mcp.md says, in this claude world: the server uses the default config dir (~/.claude), as `ccc sessions` does.
    const add = await runProcess(claudeBin, ['mcp', 'add', 'ccc', '--', process.execPath, cccBin, 'mcp'], { cwd: w.cwd, env: w.env });
    expect(add.code, add.stderr).toBe(0);
    const claude = spawn(
      claudeBin,
      ['-p', 'Ask me which database to use.', '--allowedTools', 'mcp__ccc__collect_feedback', '--output-format', 'stream-json', '--verbose'],
      {
        cwd: w.cwd,
        env: w.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    claude.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    claude.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const run = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      claude.on('close', (code) => resolve({ code, stdout, stderr })),
    );

    const listed = async () => {
      const sessions = await runProcess(process.execPath, [cccBin, 'sessions', '--json'], { cwd: w.cwd, env: w.env });
      return (JSON.parse(sessions.stdout) as { mcpServers: Array<{ pageUrl?: string }> }).mcpServers;
    };
    // A claude that ends before the question is answered fails the test at once, with what it said.
    const endedEarly = run.then((r) => {
      throw new Error(`claude ended before the answer was given (exit ${r.code}):\n${r.stderr}\n${r.stdout.slice(-4000)}`);
    });
    endedEarly.catch(() => {});
    await Promise.race([expect.poll(listed, { timeout: 60_000 }).toHaveLength(1), endedEarly]);
    const pageUrl = new URL((await listed())[0]!.pageUrl!);
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const token = pageUrl.searchParams.get('token')!;
    const questions = async () =>
      ((await (await fetch(`${pageUrl.origin}/api/questions?token=${token}`)).json()) as { questions: Array<{ id: string; question: string }> }).questions;
    await Promise.race([expect.poll(questions, { timeout: 60_000 }).toHaveLength(1), endedEarly]);
    const [question] = await questions();
    expect(question!.question).toBe(QUESTION);
    const posted = await fetch(`${pageUrl.origin}/api/answer?token=${token}`, { method: 'POST', body: JSON.stringify({ id: question!.id, answer: ANSWER }) });
    expect(posted.status).toBe(200);

    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout).find((f) => f.type === 'result')).toMatchObject({ result: 'Going with the answer.' });
    // The model's next request holds the answer, as the tool's result.
    expect(JSON.stringify(server.byKind('agent').map(toolResultOf).filter(Boolean))).toContain(ANSWER);
    await expect.poll(listed, { timeout: 30_000 }).toEqual([]);
    // What a Claude Code user finds in claude's log of the server: the token redacted, and where to get it.
    const cache = path.join(w.home, '.cache', 'claude-cli-nodejs');
    const serverLog = fs
      .readdirSync(cache, { recursive: true, encoding: 'utf8' })
      .filter((f) => /mcp-logs-ccc\/[^/]+\.jsonl$/.test(f))
      .map((f) => fs.readFileSync(path.join(cache, f), 'utf8'))
      .join('');
    expect(serverLog).toContain(`feedback page: ${pageUrl.origin}/?token=[REDACTED] (\`ccc sessions\` lists it)`);
    expect(serverLog).not.toContain(token);
  });

  it('registers with `claude mcp add ccc -- … mcp` as docs/mcp.md says, and claude finds it connected', async ({ rig }) => {
    const server = await rig.server(() => ({ text: 'unused' }));
    const world = rig.world({ server }); // offline: nothing may reach the real API
    const configDir = path.join(world.root, 'ccc-config');
    const add = await runProcess(claudeBin, ['mcp', 'add', 'ccc', '-e', `CCC_CONFIG_DIR=${configDir}`, '--', process.execPath, cccBin, 'mcp'], {
      cwd: world.cwd,
      env: world.env,
    });
    expect(add.code, add.stderr).toBe(0);
    const list = await runProcess(claudeBin, ['mcp', 'list'], { cwd: world.cwd, env: world.env, timeoutMs: 60_000 });
    expect(list.stdout).toMatch(/^ccc: .*main\.js mcp - ✔ Connected$/m);
  });
});
