/**
 * The answers the Keeper gives in place of the Worker's. They are tool results with
 * `isError: true` (not JSON-RPC errors) so the agent's model reads them, as the MCP spec asks for
 * errors a model can act on; each starts with a stable code in brackets and says what to do.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type CallErrorCode = 'WORKER_UNAVAILABLE' | 'WORKER_CRASHED' | 'WORKER_FATAL' | 'SERVER_STOPPING';

export function errorResult(text: string, code: CallErrorCode = 'SERVER_STOPPING'): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `[${code}] ${text}` }] };
}

export function unavailableResult(waitedMs: number, lastReason: string | undefined): CallToolResult {
  return errorResult(
    `The ccc MCP worker is temporarily unavailable: it is restarting${lastReason ? ` after it ${lastReason.startsWith('did') ? lastReason : `stopped (${lastReason})`}` : ''} ` +
      `and was not ready within ${waitedMs} ms. Try the call again shortly.`,
    'WORKER_UNAVAILABLE',
  );
}

export function workerCrashedResult(tool: string, reason: string): CallToolResult {
  return errorResult(
    `The ccc MCP worker stopped while running ${tool} (${reason}). It is being restarted; the call was not completed ` +
      'and was not retried automatically, because a tool may have side effects. Call it again.',
    'WORKER_CRASHED',
  );
}

export function fatalResult(message: string): CallToolResult {
  return errorResult(message, 'WORKER_FATAL');
}
