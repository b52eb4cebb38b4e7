/**
 * Runs one tool by name and turns what it returns or throws into an MCP tool result. Used by the
 * Worker and by single-process mode alike. A tool returns a plain JSON object; the result carries
 * it twice, as text (what most clients show the model) and as `structuredContent`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorText } from '../../errors.js';

export interface ToolContext {
  /** Aborts when the client cancels the call (or the server shuts down). */
  signal: AbortSignal;
  /** Reports progress; relayed as `notifications/progress` when the client asked for it. */
  progress(update: { progress: number; total?: number; message?: string }): void;
}

export type ToolHandler = (args: Record<string, unknown>, context: ToolContext) => Promise<Record<string, unknown>>;

/** Thrown by a tool whose arguments are wrong; the message says which and what is allowed. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

export async function runTool(
  handlers: ReadonlyMap<string, ToolHandler>,
  name: string,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<CallToolResult> {
  const handler = handlers.get(name);
  if (!handler) {
    return {
      isError: true,
      content: [{ type: 'text', text: `[UNKNOWN_TOOL] There is no tool named ${JSON.stringify(name)}; call tools/list for the available tools.` }],
    };
  }
  try {
    return jsonResult(await handler(args, context));
  } catch (error) {
    const message = errorText(error);
    const code = error instanceof ToolInputError ? 'INVALID_ARGUMENTS' : 'TOOL_FAILED';
    return { isError: true, content: [{ type: 'text', text: `[${code}] ${name}: ${message}` }] };
  }
}
