/**
 * What both modes of `ccc mcp` run in the process that holds the MCP connection: the database,
 * the board of open questions, and the HTTP server (health API and feedback page). A port that
 * cannot be bound or a database that cannot be opened is logged and reported by `self_test`, but
 * does not stop the MCP server: its other tools still work.
 */
import { createFeedbackBoard, type FeedbackBoard } from './feedback/board.js';
import type { HealthReport } from './http/health-report.js';
import { startHttpServer, type McpHttpServer } from './http/http-server.js';
import type { Logger } from '../log/logger.js';
import type { McpOptions } from './options.js';
import { openMcpStoreSafely, type McpStore } from './storage/mcp-store.js';
import type { ComponentHealth } from './tools/self-test.js';

export interface McpServices {
  store: McpStore;
  board: FeedbackBoard;
  http: McpHttpServer | undefined;
  /** self_test's web server check: a real request to our own health endpoint. */
  checkWebServer(timeoutMs: number): Promise<ComponentHealth & { url?: string }>;
  checkDatabase(): ComponentHealth & { path: string };
  close(): Promise<void>;
}

export async function startServices(options: McpOptions, logger: Logger, health: () => HealthReport): Promise<McpServices> {
  const store = openMcpStoreSafely(options.configDir, (message) => logger.error(message));
  const board = createFeedbackBoard();
  let http: McpHttpServer | undefined;
  let httpError: string | undefined;
  try {
    http = await startHttpServer({ port: options.http_port, board, health });
    // The one place the page URL (with its token) is shown: the human reads it in the server log.
    logger.info(`feedback page: ${http.pageUrl}`, { health: http.healthUrl });
  } catch (error) {
    httpError = `cannot listen on 127.0.0.1:${options.http_port}: ${error instanceof Error ? error.message : String(error)}`;
    logger.error(`${httpError}; collect_feedback has no web page (set mcp.http_port or CCC_MCP_HTTP_PORT to a free port, or 0 for any)`);
  }
  return {
    store,
    board,
    http,
    async checkWebServer(timeoutMs) {
      if (!http) return { status: 'failed', detail: httpError };
      try {
        const response = await fetch(http.healthUrl, { signal: AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer();
        if (!response.ok) return { status: 'failed', url: http.pageUrl, detail: `GET /api/health answered ${response.status}` };
        return { status: 'ok', url: http.pageUrl };
      } catch (error) {
        return { status: 'failed', url: http.pageUrl, detail: `GET /api/health failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    checkDatabase() {
      const check = store.check();
      return check.ok ? { status: 'ok', path: store.path } : { status: 'failed', path: store.path, detail: check.error };
    },
    async close() {
      await http?.close();
      store.close();
    },
  };
}
