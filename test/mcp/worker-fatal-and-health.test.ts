/**
 * Workers that misbehave on purpose (test hooks): one that crashes at every start (the fatal
 * state, SUP-001), one that stops answering pings, and one that is busy (SUP-002).
 */
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { SelfTestResult } from '../../src/mcp/tools/self-test.js';
import { resultText, startMcpProcess, until, waitHealthy, type McpProcess } from './support/mcp-process.js';

let server: McpProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a Worker that crashes at every start', () => {
  it('is restarted max_restart_attempts times, then the fatal state is reported through MCP while the connection stays open', async () => {
    server = await startMcpProcess({ env: { CCC_MCP_TEST_CRASH_AT_START: '1', SUPERVISOR_MAX_RESTART_ATTEMPTS: '2', SUPERVISOR_RESTART_DELAY_MS: '50' } });
    const logs: string[] = [];
    server.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await until(() => server!.stderr().includes('giving up on the worker'), 'the fatal state', 30_000);
    expect(server.stderr().match(/TEST HOOK CCC_MCP_TEST_CRASH_AT_START/g)).toHaveLength(3); // first start + 2 restarts

    const result = await server.call('supervisor_status');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(
      /^\[WORKER_FATAL\] The ccc MCP worker keeps stopping \(last: exited with code 70\)\. It was restarted 2 times in the last 10 minutes, the limit \(mcp\.max_restart_attempts=2\).*Call the self_test tool/,
    );
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(['self_test', 'supervisor_status', 'collect_feedback']);
    const health = await server.health();
    expect(health).toMatchObject({ status: 'fatal', supervisor: { enabled: true, workerStatus: 'fatal', restartCount: 2 }, worker: { pid: null } });

    // self_test tries once more, fails, and says a human is needed.
    const selfTest = JSON.parse(resultText(await server.call('self_test'))) as SelfTestResult;
    expect(selfTest.health.worker).toMatchObject({ status: 'failed', pid: null });
    expect(selfTest.summary).toMatch(/^Auto-repair failed: the worker could not be restarted \(exited with code 70\).*manual intervention is needed/);
    expect(selfTest.autoRepair).toBeUndefined();
    expect(selfTest.diagnostics.restartHistory.map((r) => [r.trigger, r.outcome])).toEqual([
      ['crash', 'failed'],
      ['crash', 'failed'],
      ['self_test', 'failed'],
    ]);
    expect(server.transportErrors).toEqual([]);
    // The client also got the fatal state as a log notification (level critical).
    await until(() => logs.length > 0, 'notifications/message');
    expect(logs[0]).toMatch(/^The ccc MCP worker keeps stopping/);
  });
});

describe('health checks', () => {
  it('restart a Worker that stops answering pings after health_failures misses', async () => {
    server = await startMcpProcess({
      // The first Worker ignores pings, so it misses whatever the timeout. The timeout is long
      // enough for the second to answer on a loaded machine: self_test's own check uses it too,
      // and at 100 ms it restarted a healthy Worker beside two CI runs (a second history entry).
      env: { CCC_MCP_TEST_IGNORE_PINGS: 'gen:1', SUPERVISOR_HEALTH_INTERVAL_MS: '100', SUPERVISOR_HEALTH_TIMEOUT_MS: '2000', SUPERVISOR_HEALTH_FAILURES: '3' },
    });
    await until(() => server!.stderr().includes('restarting the worker'), 'a restart', 30_000);
    const log = server.stderr();
    const misses = [...log.matchAll(/health check missed \((\d)\/3\)/g)].map((m) => m[1]);
    expect(misses).toEqual(['1', '2', '3']);
    expect(log.indexOf('missed (3/3)')).toBeLessThan(log.indexOf('worker stopped: 3 health checks missed in a row'));
    const secondPid = await waitHealthy(server);
    const selfTest = await server.callJson<SelfTestResult>('self_test');
    expect(selfTest.diagnostics.restartHistory).toEqual([
      expect.objectContaining({ trigger: 'health_check', reason: '3 health checks missed in a row', newPid: secondPid, outcome: 'ready' }),
    ]);
  });

  it('leave a Worker alone that cannot answer pings because it is busy in a tool call', async () => {
    server = await startMcpProcess({
      env: {
        CCC_MCP_TEST_TOOLS: '1',
        SUPERVISOR_HEALTH_INTERVAL_MS: '100',
        // Long enough that an idle Worker on a loaded machine does not miss twice in a row before
        // the block; the block spans several timeouts, so pings are missed while it is busy.
        SUPERVISOR_HEALTH_TIMEOUT_MS: '1000',
        SUPERVISOR_HEALTH_FAILURES: '2',
        CCC_SUPERVISOR_LOG_LEVEL: 'debug',
      },
    });
    const pid = await waitHealthy(server);
    const result = await server.callJson<{ blocked: number; pid: number }>('test_block', { ms: 4000 });
    expect(result).toEqual({ blocked: 4000, pid });
    expect(server.stderr()).toContain('the worker is busy, not hung');
    expect(server.stderr()).not.toContain('restarting the worker');
    expect((await server.health()).supervisor).toMatchObject({ restartCount: 0 });
  });
});
