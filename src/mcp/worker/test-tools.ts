/**
 * TEST HOOK tools (see test-hooks.ts): offered only when CCC_MCP_TEST_TOOLS is set. They give the
 * tests a call that is still running when the Worker is killed (`test_sleep`) and a Worker that
 * is busy, not hung, while it cannot answer pings (`test_block`).
 */
import type { ToolHandler } from '../tools/tool-runner.js';
import { ToolInputError } from '../tools/tool-runner.js';

function milliseconds(args: Record<string, unknown>): number {
  const ms = args.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000) throw new ToolInputError('ms must be a number from 0 to 600000');
  return ms;
}

export const testToolHandlers: Record<string, ToolHandler> = {
  test_sleep: async (args, { signal }) => {
    const ms = milliseconds(args);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { slept: ms, pid: process.pid };
  },
  test_block: async (args) => {
    const ms = milliseconds(args);
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // Deliberately blocks the event loop, as a CPU-bound tool would.
    }
    return { blocked: ms, pid: process.pid };
  },
};
