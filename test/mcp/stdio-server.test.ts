/**
 * `ccc mcp` as a client sees it: the SDK's real Client over stdio against the built CLI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SelfTestResult } from '../../src/mcp/tools/self-test.js';
import { isAlive, startMcpProcess, until, type McpProcess } from './support/mcp-process.js';

let server: McpProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ccc mcp over stdio', () => {
  it('lists the three tools, self_test says all ok, /api/health has the supervisor fields, and closing stdin stops the worker too', async () => {
    server = await startMcpProcess();
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['self_test', 'supervisor_status', 'collect_feedback']);

    const result = await server.callJson<SelfTestResult>('self_test');
    expect(result.health.supervisor).toMatchObject({ status: 'ok', mode: 'supervisor' });
    expect(result.health.worker.status).toBe('ok');
    expect(result.health.webServer.status).toBe('ok');
    expect(result.health.database).toMatchObject({ status: 'ok', path: `${server.configDir}/ccc/mcp.jsonl` });
    expect(result.autoRepair).toBeUndefined();
    expect(result.diagnostics.system).toEqual({
      platform: process.platform,
      nodeVersion: process.version,
      totalMemory: expect.any(Number),
      freeMemory: expect.any(Number),
    });
    expect(result.diagnostics.restartHistory).toEqual([]);
    expect(result.summary).toBe('All checks are ok: supervisor, worker, web server and database.');

    const health = await server.health();
    expect(health).toMatchObject({ status: 'ok', supervisor: { enabled: true, pid: server.transport.pid, workerStatus: 'healthy', restartCount: 0 } });
    const workerPid = health.worker.pid!;
    expect(workerPid).not.toBe(server.transport.pid);
    expect(isAlive(workerPid)).toBe(true);

    expect(await server.callJson('supervisor_status')).toEqual({ sessions: [], problems: [], summary: 'No supervised session is running.' });
    expect(server.transportErrors).toEqual([]); // stdout carried nothing but protocol
    expect(server.stderr()).toMatch(/\[INFO\] \[mcp-supervisor\] .*starting in supervisor mode/);

    const keeperPid = server.transport.pid!;
    await server.close();
    server = undefined;
    await until(() => !isAlive(keeperPid) && !isAlive(workerPid), 'keeper and worker exit');
  });

  it('never leaves the worker behind, even when the keeper process is killed with SIGKILL', async () => {
    server = await startMcpProcess();
    const health = await server.health();
    const workerPid = health.worker.pid!;
    expect(isAlive(workerPid)).toBe(true);
    process.kill(health.supervisor.pid, 'SIGKILL');
    await until(() => !isAlive(workerPid), 'the orphaned worker to exit');
  });

  it('runs the tools in one process with --no-supervisor: /api/health says supervisor.enabled=false', async () => {
    server = await startMcpProcess({ args: ['--no-supervisor'] });
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(['self_test', 'supervisor_status', 'collect_feedback']);
    const health = await server.health();
    expect(health).toMatchObject({
      status: 'ok',
      mode: 'single-process',
      supervisor: { enabled: false, pid: server.transport.pid, restartCount: 0 },
      worker: { pid: server.transport.pid },
    });
    const result = await server.callJson<SelfTestResult>('self_test');
    expect(result.health.supervisor).toMatchObject({ status: 'disabled', mode: 'single-process' });
    expect(result.health.worker).toEqual({ status: 'ok', pid: server.transport.pid });
    expect(result.summary).toMatch(/^All checks are ok \(single-process mode/);
    expect(server.stderr()).toContain('starting in single-process mode');
  });

  it('also runs in one process with SUPERVISOR_ENABLED=false', async () => {
    server = await startMcpProcess({ env: { SUPERVISOR_ENABLED: 'false' } });
    expect((await server.health()).supervisor.enabled).toBe(false);
  });

  it('warns about SUPERVISOR_MAX_RESTART_ATTEMPTS=-1, starts anyway and uses 5 (003 SUP-005)', async () => {
    server = await startMcpProcess({ env: { SUPERVISOR_MAX_RESTART_ATTEMPTS: '-1' } });
    expect(server.stderr()).toContain('ccc: warning: Ignoring environment variable SUPERVISOR_MAX_RESTART_ATTEMPTS="-1"');
    const result = await server.callJson<SelfTestResult>('self_test');
    expect(result.diagnostics.restartLimit).toEqual({ maxAttempts: 5, windowMinutes: 10 });
  });

  it('answers an unknown tool with a protocol error that says how to find the right name', async () => {
    server = await startMcpProcess();
    const error = await server.call('no_such_tool').catch((e: unknown) => e);
    // One "MCP error -32602: " prefix, the client's: the server's message on the wire has none.
    expect((error as Error).message).toBe('MCP error -32602: Unknown tool "no_such_tool"; call tools/list for the available tools.');
    const response = server.messages.find((m) => 'error' in m) as { error: { code: number; message: string } };
    expect(response.error).toEqual({ code: -32602, message: 'Unknown tool "no_such_tool"; call tools/list for the available tools.' });
  });
});
