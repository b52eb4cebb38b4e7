/**
 * Entry point of the Worker process, forked by the Supervisor (`dist/mcp/worker-main.js`).
 * Not meant to be started by hand: without an IPC channel it refuses to run.
 */
import { createMcpLogger } from './log.js';
import { configDirFrom } from './options.js';
import { readTestHooks } from './worker/test-hooks.js';
import { processPort, runWorker } from './worker/worker-runtime.js';

const generation = Number(process.env.CCC_MCP_WORKER_GENERATION ?? '1');
const level = (['debug', 'info', 'warn', 'error'] as const).find((l) => l === process.env.CCC_SUPERVISOR_LOG_LEVEL) ?? 'info';
const logger = createMcpLogger({ level, module: `mcp-worker#${generation}` });

if (!process.send) {
  process.stderr.write('ccc: worker-main.js is started by `ccc mcp`, not by hand.\n');
  process.exit(2);
}
const hooks = readTestHooks(process.env, generation);
if (hooks.crashAtStart) {
  logger.error('TEST HOOK CCC_MCP_TEST_CRASH_AT_START: exiting before ready');
  process.exit(70);
}
runWorker({ port: processPort(), env: process.env, configDir: configDirFrom(process.env), hooks, logger });
