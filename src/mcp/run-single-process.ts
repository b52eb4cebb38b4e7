/**
 * Single-process mode (`--no-supervisor` or SUPERVISOR_ENABLED=false; docs/design/mcp.md): the tools run in this process, nothing restarts them, `/api/health` says
 * `supervisor.enabled: false`.
 */
import { boardChannel } from './feedback/channel.js';
import { openControllingTerminal, terminalChannel } from './feedback/terminal-channel.js';
import { healthReport } from './http/health-report.js';
import type { Logger } from '../log/logger.js';
import { createMcpServer } from './mcp-server.js';
import type { McpOptions } from './options.js';
import { startServices } from './services.js';
import type { RunningMcp } from './keeper/run-keeper.js';
import { selfTestTool, workerTools } from './tools/definitions.js';
import { runSelfTest, type SelfTestHost } from './tools/self-test.js';
import { jsonResult, runTool } from './tools/tool-runner.js';
import { workerHandlers } from './tools/worker-handlers.js';
import { readTestHooks } from './worker/test-hooks.js';

export async function startSingleProcessServer(options: McpOptions, env: NodeJS.ProcessEnv, logger: Logger): Promise<RunningMcp> {
  const startedAt = Date.now();
  const hooks = readTestHooks(env, 1);
  const services = await startServices(options, logger, () =>
    healthReport({ mode: 'single-process', startedAt, workerStatus: 'in-process', workerPid: process.pid, restartCount: 0 }),
  );
  const terminal = terminalChannel(() => openControllingTerminal(env, process.stderr.isTTY === true));
  const handlers = workerHandlers({
    configDir: options.configDir,
    channels: [boardChannel(services.board), terminal],
    store: services.store,
    testTools: hooks.testTools,
  });
  const host: SelfTestHost = {
    mode: 'single-process',
    startedAt,
    repair: async () => ({ kind: 'ok', pid: process.pid }),
    restarts: () => ({ history: [], count: 0, maxAttempts: 0, windowMs: options.restart_window_ms }),
    webServer: () => services.checkWebServer(options.health_timeout_ms),
    database: () => services.checkDatabase(),
  };
  const running = new Set<AbortController>();
  const mcp = createMcpServer(
    {
      tools: () => [selfTestTool, ...workerTools(hooks)],
      async call(request) {
        if (request.name === selfTestTool.name) return jsonResult({ ...(await runSelfTest(host)) });
        const controller = new AbortController();
        const onAbort = () => controller.abort(request.signal.reason);
        request.signal.addEventListener('abort', onAbort, { once: true });
        running.add(controller);
        try {
          const result = await runTool(handlers, request.name, request.arguments, { signal: controller.signal, progress: (u) => request.onProgress?.(u) });
          return request.signal.aborted ? 'cancelled' : result;
        } finally {
          running.delete(controller);
          request.signal.removeEventListener('abort', onAbort);
        }
      },
    },
    logger,
  );
  return {
    mcp,
    async close() {
      for (const controller of running) controller.abort('the MCP server is shutting down');
      await services.close();
    },
  };
}
