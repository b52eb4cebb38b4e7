/**
 * Keeper mode (the default; `/api/health` and `self_test` call it `supervisor`): this process holds
 * the MCP connection, the HTTP server and the database, answers `self_test` itself, and forwards
 * every other tool call to a restartable Worker process.
 */
import { randomUUID } from 'node:crypto';
import { healthReport } from '../http/health-report.js';
import type { Logger } from '../../log/logger.js';
import { createMcpServer, type CccMcpServer } from '../mcp-server.js';
import type { McpOptions } from '../options.js';
import { startServices } from '../services.js';
import { selfTestTool, workerTools } from '../tools/definitions.js';
import { runSelfTest, type SelfTestHost } from '../tools/self-test.js';
import { jsonResult } from '../tools/tool-runner.js';
import { readTestHooks } from '../worker/test-hooks.js';
import { createMcpKeeper } from './keeper.js';
import { createForkSpawner } from './worker-process.js';

export interface RunningMcp {
  mcp: CccMcpServer;
  close(): Promise<void>;
}

export async function startKeeperServer(options: McpOptions, env: NodeJS.ProcessEnv, logger: Logger): Promise<RunningMcp> {
  const startedAt = Date.now();
  const runId = randomUUID();
  const services = await startServices(options, logger, () => {
    const snapshot = keeper.snapshot();
    return healthReport({
      mode: 'supervisor',
      startedAt,
      workerStatus: snapshot.workerStatus,
      workerPid: snapshot.workerPid,
      restartCount: snapshot.restartCount,
    });
  });
  const workerEnv = { ...env, CCC_CONFIG_DIR: options.configDir, CCC_SUPERVISOR_LOG_LEVEL: options.log_level };
  const keeper = createMcpKeeper({
    options,
    spawn: createForkSpawner({ env: workerEnv }),
    logger,
    board: services.board,
    initialTools: workerTools(readTestHooks(env, 1)),
    onToolsChanged: () => mcp.toolsChanged(),
    onFatal: (message) => mcp.notify('critical', message),
    onRestart: (record) => services.store.recordRestart(runId, record),
  });
  const host: SelfTestHost = {
    mode: 'supervisor',
    startedAt,
    repair: () => keeper.repair(),
    restarts: () => {
      const snapshot = keeper.snapshot();
      return { history: snapshot.history, count: snapshot.restartCount, maxAttempts: options.max_restart_attempts, windowMs: options.restart_window_ms };
    },
    webServer: () => services.checkWebServer(options.health_timeout_ms),
    database: () => services.checkDatabase(),
  };
  const mcp = createMcpServer(
    {
      tools: () => [selfTestTool, ...keeper.tools()],
      call: async (request) => (request.name === selfTestTool.name ? jsonResult({ ...(await runSelfTest(host)) }) : keeper.call(request)),
    },
    logger,
  );
  keeper.start();
  return {
    mcp,
    async close() {
      keeper.stop();
      await services.close();
    },
  };
}
