/**
 * The MCP side of `ccc mcp`, on the official SDK (no hand-written JSON-RPC): `tools/list` and
 * `tools/call` go to a `ToolBackend` (the Keeper's, or the in-process one of
 * `--no-supervisor`). A call the client cancels is aborted through `extra.signal`; the SDK then
 * sends no response for it, whatever the backend returns (checked in test/mcp/cancel.test.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';

export interface ToolBackend {
  tools(): Tool[];
  /** Never rejects for a known tool; 'cancelled' when `signal` aborted (no response is sent). */
  call(request: {
    name: string;
    arguments: Record<string, unknown>;
    signal: AbortSignal;
    onProgress?: (update: { progress: number; total?: number; message?: string }) => void;
  }): Promise<CallToolResult | 'cancelled'>;
}

export const serverInfo = { name: 'ccc', version: '0.1.0' };

export interface CccMcpServer {
  server: Server;
  /** Tells an initialized client that the tool set changed. */
  toolsChanged(): void;
  /** Sends a log message to the client (it shows or stores it as it likes). */
  notify(level: 'info' | 'warning' | 'error' | 'critical', message: string): void;
}

export function createMcpServer(backend: ToolBackend, logger: Logger): CccMcpServer {
  // The low-level Server, not McpServer: a proxy whose tool set comes from another process at run
  // time is the "advanced use" the SDK keeps it for.
  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions:
      'ccc tools: self_test (health check and repair of this server), supervisor_status (running supervised ' +
      'Claude Code sessions), collect_feedback (ask the human a question, with a bounded wait).',
  });
  server.onerror = (error) => logger.warn(`MCP protocol error: ${error.message}`);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: backend.tools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (!backend.tools().some((tool) => tool.name === name)) {
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; call tools/list for the available tools.`);
    }
    const progressToken = request.params._meta?.progressToken;
    const result = await backend.call({
      name,
      arguments: request.params.arguments ?? {},
      signal: extra.signal,
      onProgress:
        progressToken === undefined
          ? undefined
          : (update) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }).catch(() => {}),
    });
    // For a cancelled call the SDK drops whatever is returned here; an empty result keeps types simple.
    return result === 'cancelled' ? { content: [] } : result;
  });

  const initialized = () => server.getClientCapabilities() !== undefined;
  return {
    server,
    toolsChanged() {
      if (initialized()) void server.sendToolListChanged().catch(() => {});
    },
    notify(level, message) {
      if (initialized()) void server.sendLoggingMessage({ level, logger: 'ccc-mcp', data: message }).catch(() => {});
    },
  };
}

/**
 * A JSON-RPC error response with this code and message. Not the SDK's McpError: its message
 * already starts with "MCP error <code>: ", which goes out on the wire, and the client's McpError
 * adds the same prefix again.
 */
function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
