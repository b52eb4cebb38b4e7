/**
 * The real claude and an MCP server, pinned on 2.1.330 (`claude -p`):
 * - of the server's stderr, the lines written while it connects go into
 *   `~/.cache/claude-cli-nodejs/<project>/mcp-logs-<name>/*.jsonl` with every `token=` value
 *   replaced by `[REDACTED]`; lines written later (during a tool call) are not kept at all. Hence
 *   `ccc mcp` says at start that `ccc sessions` has the feedback page's full address, and keeps that
 *   address where `ccc sessions` finds it (src/mcp/running-server.ts);
 * - a server slow to start is not waited for: the first model request goes out before it is
 *   connected; a call of its tool then waits for it and runs, and the next request carries, after
 *   the tool result, a message saying the server's tools "are now available" (a scripted model
 *   that looks only at the last message misses the result).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin, repoRoot } from '../support/claude-env.js';
import { isToolResultTurn, type RecordedRequest } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

const sdk = (file: string) => pathToFileURL(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', file)).href;

/**
 * A minimal MCP server: one line with a token on stderr at start, another in its one tool; it
 * connects after START_DELAY_MS.
 */
const SERVER = `
import { McpServer } from ${JSON.stringify(sdk('server/mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(sdk('server/stdio.js'))};
await new Promise((resolve) => setTimeout(resolve, Number(process.env.START_DELAY_MS ?? 0)));
process.stderr.write('AT-START page http://127.0.0.1:1/?token=SECRET-START-31&x=1\\n');
const server = new McpServer({ name: 'pin', version: '1.0.0' });
server.registerTool('ping', { description: 'ping' }, async () => {
  process.stderr.write('DURING-CALL page http://127.0.0.1:1/?token=SECRET-LATER-32\\n');
  return { content: [{ type: 'text', text: 'pong' }] };
});
await server.connect(new StdioServerTransport());
`;

/** The text of every message of a request after its tool result (none: the result is last). */
function afterToolResult(request: RecordedRequest): string[] {
  const at = request.body.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));
  return at < 0 ? [] : request.body.messages.slice(at + 1).map((m) => JSON.stringify(m.content));
}

describe('the real claude and an MCP server', () => {
  it('keeps the lines written at start, tokens redacted, and none written during a tool call', async ({ rig }) => {
    const server = await rig.server((request) => (isToolResultTurn(request) ? { text: 'done' } : { toolUse: { name: 'mcp__pin__ping', input: {} } }));
    const world = rig.world({ server });
    const script = path.join(world.root, 'pin-server.mjs');
    fs.writeFileSync(script, SERVER);
    const add = await runProcess(claudeBin, ['mcp', 'add', 'pin', '--', process.execPath, script], { cwd: world.cwd, env: world.env });
    expect(add.code, add.stderr).toBe(0);
    const run = await runProcess(claudeBin, ['-p', 'Ping.', '--allowedTools', 'mcp__pin__ping'], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(server.byKind('agent').some((r) => isToolResultTurn(r) && JSON.stringify(r.body.messages.at(-1)).includes('pong'))).toBe(true);

    const cache = path.join(world.home, '.cache', 'claude-cli-nodejs');
    const logs = fs.readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((f) => /mcp-logs-pin\/[^/]+\.jsonl$/.test(f));
    expect(logs).toHaveLength(1);
    const log = fs.readFileSync(path.join(cache, logs[0]!), 'utf8');
    expect(log).toContain('AT-START page http://127.0.0.1:1/?token=[REDACTED]');
    expect(log).toContain('Calling MCP tool: ping');
    expect(log).not.toContain('DURING-CALL');
    expect(log).not.toContain('SECRET');
  });

  it('does not wait for a server slow to start: its tool runs when called, and the result is followed by a "now available" message', async ({ rig }) => {
    const server = await rig.server((request) => (request.text.includes('pong') ? { text: 'done' } : { toolUse: { name: 'mcp__pin__ping', input: {} } }));
    const world = rig.world({ server });
    const script = path.join(world.root, 'pin-server.mjs');
    fs.writeFileSync(script, SERVER);
    const add = await runProcess(claudeBin, ['mcp', 'add', 'pin', '-e', 'START_DELAY_MS=5000', '--', process.execPath, script], {
      cwd: world.cwd,
      env: world.env,
    });
    expect(add.code, add.stderr).toBe(0);
    const run = await runProcess(claudeBin, ['-p', 'Ping.', '--allowedTools', 'mcp__pin__ping'], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    const [first, ...later] = server.byKind('agent');
    expect(first!.text).not.toContain('mcp__pin__ping');
    const withResult = later.find((r) => r.text.includes('pong'))!;
    expect(afterToolResult(withResult).join('\n')).toContain('are now available');
  });
});
