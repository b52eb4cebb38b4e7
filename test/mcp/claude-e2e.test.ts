/**
 * End to end: the real `claude` starts `ccc mcp` from --mcp-config, the scripted model calls
 * `mcp__ccc__self_test`, and the tool's SelfTestResult reaches the model server as a tool_result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin, claudeBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { isToolResultTurn, startModelServer, type ModelServer } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';
import { isAlive, until } from './support/mcp-process.js';

let server: ModelServer | undefined;
let world: ClaudeWorld | undefined;
afterEach(async () => {
  await server?.close();
  world?.cleanup();
  server = undefined;
  world = undefined;
});

describe('ccc mcp under the real claude', () => {
  it('answers the model\'s self_test call and the SelfTestResult reaches the model', async () => {
    server = await startModelServer((request) =>
      isToolResultTurn(request) ? { text: 'The self test passed.' } : { toolUse: { name: 'mcp__ccc__self_test', input: {} } },
    );
    world = makeClaudeWorld({ modelUrl: server.url });
    const configDir = path.join(world.root, 'ccc-config');
    const mcpConfig = path.join(world.root, 'mcp.json');
    fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { ccc: { command: process.execPath, args: [cccBin, 'mcp'], env: { CCC_CONFIG_DIR: configDir } } } }));

    const run = await runProcess(
      claudeBin,
      ['-p', 'Run the ccc self test.', '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', 'mcp__ccc__self_test', '--output-format', 'stream-json', '--verbose'],
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
    for (const name of ['mcp__ccc__self_test', 'mcp__ccc__supervisor_status', 'mcp__ccc__collect_feedback']) expect(agentRequests[0]!.text).toContain(name);
    const toolTurn = agentRequests.find((r) => isToolResultTurn(r))!;
    const last = toolTurn.body.messages.at(-1)!;
    const toolResult = (last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>).find((b) => b.type === 'tool_result')!;
    expect(toolResult.is_error).toBeFalsy();
    const text = typeof toolResult.content === 'string' ? toolResult.content : (toolResult.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    const selfTest = JSON.parse(text) as { health: Record<string, { status: string; pid: number }>; summary: string };
    expect(selfTest.health.worker!.status).toBe('ok');
    expect(selfTest.health.database!.status).toBe('ok');
    expect(selfTest.summary).toBe('All checks are ok: supervisor, worker, web server and database.');
    expect(fs.existsSync(path.join(configDir, 'ccc', 'mcp.jsonl'))).toBe(true);
    // When claude exits, the server and its worker go too: nothing is left running.
    await until(() => !isAlive(selfTest.health.supervisor!.pid) && !isAlive(selfTest.health.worker!.pid), 'ccc mcp and its worker to exit');
  });

  it('registers with `claude mcp add ccc -- … mcp` as the README says, and claude finds it connected', async () => {
    server = await startModelServer(() => ({ text: 'unused' }));
    world = makeClaudeWorld({ modelUrl: server.url }); // offline: nothing may reach the real API
    const configDir = path.join(world.root, 'ccc-config');
    const add = await runProcess(claudeBin, ['mcp', 'add', 'ccc', '-e', `CCC_CONFIG_DIR=${configDir}`, '--', process.execPath, cccBin, 'mcp'], { cwd: world.cwd, env: world.env });
    expect(add.code, add.stderr).toBe(0);
    const list = await runProcess(claudeBin, ['mcp', 'list'], { cwd: world.cwd, env: world.env, timeoutMs: 60_000 });
    expect(list.stdout).toMatch(/^ccc: .*main\.js mcp - ✔ Connected$/m);
  });
});
