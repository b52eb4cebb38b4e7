/**
 * The Worker dies (SIGKILL from outside) and the connection survives: docs/design/mcp.md (the keeper and its worker),
 * checked with the real processes and the SDK's real Client.
 */
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { SelfTestResult } from '../../src/mcp/tools/self-test.js';
import { isAlive, resultText, startMcpProcess, until, waitHealthy, type McpProcess } from './support/mcp-process.js';

let server: McpProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a Worker killed from outside', () => {
  it('during a long call: the call gets WORKER_CRASHED, the connection stays, later calls succeed, one restart is recorded', async () => {
    server = await startMcpProcess({ env: { CCC_MCP_TEST_TOOLS: '1', CCC_SUPERVISOR_LOG_LEVEL: 'debug' } });
    const firstPid = await waitHealthy(server);
    const longCall = server.call('test_sleep', { ms: 60_000 });
    await until(() => server!.stderr().includes('running test_sleep'), 'the call to reach the worker');
    process.kill(firstPid, 'SIGKILL');

    const result = await longCall;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^\[WORKER_CRASHED\] The ccc MCP worker stopped while running test_sleep \(killed by SIGKILL\)/);

    const later = await server.callJson<{ slept: number; pid: number }>('test_sleep', { ms: 1 });
    expect(later.pid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);

    const selfTest = await server.callJson<SelfTestResult>('self_test');
    expect(selfTest.diagnostics.restartHistory).toEqual([
      expect.objectContaining({ trigger: 'crash', reason: 'killed by SIGKILL', previousPid: firstPid, newPid: later.pid, outcome: 'ready' }),
    ]);
    expect(selfTest.health.worker.status).toBe('ok');
    const health = await server.health();
    expect(health.supervisor).toMatchObject({ restartCount: 1, workerStatus: 'healthy' });
    expect(server.stderr()).toMatch(/\[ERROR\] \[mcp-supervisor\] .*worker stopped: killed by SIGKILL/);
  });

  it('between calls: a call made while it restarts waits in the queue and succeeds; one restart is recorded', async () => {
    server = await startMcpProcess({ env: { CCC_MCP_TEST_TOOLS: '1', SUPERVISOR_RESTART_DELAY_MS: '1500' } });
    const firstPid = await waitHealthy(server);
    process.kill(firstPid, 'SIGKILL');
    await until(() => server!.stderr().includes('worker stopped: killed by SIGKILL'), 'the keeper noticed');
    const queued = await server.callJson<{ pid: number }>('test_sleep', { ms: 1 });
    expect(queued.pid).not.toBe(firstPid);
    expect((await server.health()).supervisor.restartCount).toBe(1);
    const selfTest = await server.callJson<SelfTestResult>('self_test');
    expect(selfTest.diagnostics.restartHistory).toHaveLength(1);
    expect(selfTest.autoRepair).toBeUndefined();
  });

  it('a call waiting longer than queue_timeout_ms gets "temporarily unavailable"', async () => {
    server = await startMcpProcess({ env: { SUPERVISOR_RESTART_DELAY_MS: '30000', SUPERVISOR_QUEUE_TIMEOUT_MS: '300' } });
    const firstPid = await waitHealthy(server);
    process.kill(firstPid, 'SIGKILL');
    await until(() => server!.stderr().includes('worker stopped'), 'the keeper noticed');
    const result = await server.call('supervisor_status');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      '[WORKER_UNAVAILABLE] The ccc MCP worker is temporarily unavailable: it is restarting after it stopped (killed by SIGKILL) and was not ready within 300 ms. Try the call again shortly.',
    );
    expect((await server.client.listTools()).tools).toHaveLength(3);
  });

  it('sends notifications/tools/list_changed when the restarted worker offers other tools', async () => {
    server = await startMcpProcess({ env: { CCC_MCP_TEST_TOOLS: 'gen:2' } });
    let changed = 0;
    server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const firstPid = await waitHealthy(server);
    expect((await server.client.listTools()).tools.map((t) => t.name)).not.toContain('test_sleep');
    process.kill(firstPid, 'SIGKILL');
    await until(() => changed === 1, 'tools/list_changed');
    expect((await server.client.listTools()).tools.map((t) => t.name)).toContain('test_sleep');
  });
});
