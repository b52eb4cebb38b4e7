/**
 * The messages between the Keeper and the Worker over the Node IPC channel of
 * `child_process.fork`. Both sides validate what they receive: a malformed message is logged and
 * dropped, never trusted (a Worker may be half-dead or a different build).
 *
 * Lifecycle: the Worker sends `ready` once, after which the Keeper may send `call`s. Each
 * `call` gets exactly one `result` unless the Keeper sent `cancel` for it first (then none).
 * `ping`/`pong` carry a sequence number so a late pong of a missed ping is recognised as stale.
 * `feedback-*` messages let the Worker's `collect_feedback` show its question on the web page
 * that the Keeper serves (the page outlives Worker restarts).
 */
import { z } from 'zod';
import { CallToolResultSchema, ToolSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';

export type KeeperMessage =
  | { type: 'call'; id: number; name: string; arguments: Record<string, unknown> }
  | { type: 'cancel'; id: number; reason?: string }
  | { type: 'ping'; seq: number }
  | { type: 'feedback-answer'; questionId: string; answer: string };

export type WorkerMessage =
  | { type: 'ready'; pid: number; tools: Tool[] }
  | { type: 'result'; id: number; result: CallToolResult }
  | { type: 'progress'; id: number; progress: number; total?: number; message?: string }
  | { type: 'pong'; seq: number }
  | { type: 'feedback-open'; questionId: string; question: string }
  | { type: 'feedback-close'; questionId: string };

const id = z.number().int().nonnegative();
const questionId = z.string().min(1).max(200);

const keeperMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), id, name: z.string().min(1), arguments: z.record(z.unknown()) }),
  z.object({ type: z.literal('cancel'), id, reason: z.string().optional() }),
  z.object({ type: z.literal('ping'), seq: id }),
  z.object({ type: z.literal('feedback-answer'), questionId, answer: z.string() }),
]);

const workerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), pid: z.number().int().positive(), tools: z.array(z.unknown()) }),
  z.object({ type: z.literal('result'), id, result: z.unknown() }),
  z.object({ type: z.literal('progress'), id, progress: z.number(), total: z.number().optional(), message: z.string().optional() }),
  z.object({ type: z.literal('pong'), seq: id }),
  z.object({ type: z.literal('feedback-open'), questionId, question: z.string() }),
  z.object({ type: z.literal('feedback-close'), questionId }),
]);

/** A message from the Keeper, or undefined when `value` is not one. */
export function parseKeeperMessage(value: unknown): KeeperMessage | undefined {
  const parsed = keeperMessage.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A message from the Worker, or undefined when `value` is not one (tools and results are checked against the MCP schemas). */
export function parseWorkerMessage(value: unknown): WorkerMessage | undefined {
  const parsed = workerMessage.safeParse(value);
  if (!parsed.success) return undefined;
  const message = parsed.data;
  if (message.type === 'ready') {
    const tools = message.tools.map((tool) => ToolSchema.safeParse(tool));
    if (!tools.every((t) => t.success)) return undefined;
    return { type: 'ready', pid: message.pid, tools: tools.map((t) => t.data) };
  }
  if (message.type === 'result') {
    const result = CallToolResultSchema.safeParse(message.result);
    return result.success ? { type: 'result', id: message.id, result: result.data } : undefined;
  }
  return message;
}
