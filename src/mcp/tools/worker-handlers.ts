/**
 * The tools the Worker runs (and single-process mode runs in-process), keyed by tool name.
 */
import type { FeedbackChannel } from '../feedback/channel.js';
import type { FeedbackStore } from '../storage/mcp-store.js';
import { testToolHandlers } from '../worker/test-tools.js';
import { collectFeedback } from './collect-feedback.js';
import { readSupervisorStatus } from './supervisor-status.js';
import type { ToolHandler } from './tool-runner.js';

export interface WorkerToolDeps {
  configDir: string;
  channels: FeedbackChannel[];
  store: FeedbackStore;
  testTools: boolean;
}

export function workerHandlers(deps: WorkerToolDeps): Map<string, ToolHandler> {
  const handlers = new Map<string, ToolHandler>([
    ['supervisor_status', async () => ({ ...(await readSupervisorStatus({ configDir: deps.configDir })) })],
    ['collect_feedback', async (args, context) => ({ ...(await collectFeedback(args, { channels: deps.channels, store: deps.store }, context)) })],
  ]);
  if (deps.testTools) for (const [name, handler] of Object.entries(testToolHandlers)) handlers.set(name, handler);
  return handlers;
}
