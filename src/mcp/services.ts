/**
 * What both modes of `ccc mcp` run in the process that holds the MCP connection: the database,
 * the board of open questions, and the HTTP server (health API and feedback page). A port that
 * cannot be bound or a database that cannot be opened is logged and reported by `self_test`, but
 * does not stop the MCP server: its other tools still work.
 */
import { createFeedbackBoard, type FeedbackBoard } from './feedback/board.js';
import type { HealthReport } from './http/health-report.js';
import { startHttpServer, type McpHttpServer } from './http/http-server.js';
import { loadPageToken } from './http/page-token.js';
import type { Logger } from '../log/logger.js';
import type { McpOptions } from './options.js';
import { registerMcpServer } from './running-server.js';
import { openMcpStoreSafely, type McpStore } from './storage/mcp-store.js';
import type { ComponentHealth } from './tools/self-test.js';
import { errorText } from '../errors.js';

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
  let http: McpHttpServer | undefined;
  let httpError: string | undefined;
  const board = announceQuestions(createFeedbackBoard(), logger, () =>
    http
      ? `on the feedback page ${http.origin}/ (its address with the access token: run \`ccc sessions\`)`
      : `but the feedback page is not running (${httpError ?? 'not started'}); it is asked in the terminal when ccc mcp has one`,
  );
  try {
    const token = await loadPageToken(options.configDir, (message) => logger.warn(message));
    http = await startHttpServer({ port: options.http_port, board, health, token });
    // Clients that keep this log may redact the token (Claude Code does): `ccc sessions` has it too.
    logger.info(`feedback page: ${http.pageUrl} (\`ccc sessions\` lists it)`, { health: http.healthUrl });
  } catch (error) {
    httpError = `cannot listen on 127.0.0.1:${options.http_port}: ${errorText(error)}`;
    logger.error(`${httpError}; collect_feedback has no web page (set mcp.http_port or CCC_MCP_HTTP_PORT to a free port, or 0 for any)`);
  }
  const registration = await registerMcpServer(options.configDir, {
    pid: process.pid,
    mode: options.enabled ? 'supervisor' : 'single-process',
    cwd: process.cwd(),
    ...(http ? { page_url: http.pageUrl, health_url: http.healthUrl } : {}),
  }).catch((error: unknown) => {
    logger.warn(`cannot record this server for \`ccc sessions\`: ${errorText(error)}`);
    return undefined;
  });
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
        return { status: 'failed', url: http.pageUrl, detail: `GET /api/health failed: ${errorText(error)}` };
      }
    },
    checkDatabase() {
      const check = store.check();
      return check.ok ? { status: 'ok', path: store.path } : { status: 'failed', path: store.path, detail: check.error };
    },
    async close() {
      await registration?.remove();
      await http?.close();
      store.close();
    },
  };
}

/** Says in the log that a question waits, and where: the client may not show the tool call. */
function announceQuestions(board: FeedbackBoard, logger: Logger, where: () => string): FeedbackBoard {
  return {
    ...board,
    open(question, onAnswer) {
      logger.info(`a question is waiting for your answer ${where()}`, { question_id: question.id });
      return board.open(question, onAnswer);
    },
  };
}
