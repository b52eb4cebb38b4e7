/**
 * Entry point of the Worker process, forked by the Keeper (`dist/mcp/worker-main.js`), which
 * passes the resolved config dir and log level in CCC_CONFIG_DIR and CCC_SUPERVISOR_LOG_LEVEL.
 * Not meant to be started by hand: without an IPC channel it refuses to run.
 */
import { createLogger } from '../log/logger.js';
import { readTestHooks } from './worker/test-hooks.js';
import { processPort, runWorker } from './worker/worker-runtime.js';

const generation = Number(process.env.CCC_MCP_WORKER_GENERATION ?? '1');
const configDir = process.env.CCC_CONFIG_DIR;
if (!process.send || !configDir) {
  process.stderr.write('ccc: worker-main.js is started by `ccc mcp`, not by hand.\n');
  process.exit(2);
}
const level = (['debug', 'info', 'warn', 'error'] as const).find((l) => l === process.env.CCC_SUPERVISOR_LOG_LEVEL) ?? 'info';
const logger = createLogger({ level, module: 'mcp-worker', fields: { generation }, stderr: true });

const hooks = readTestHooks(process.env, generation);
if (hooks.crashAtStart) {
  logger.error('TEST HOOK CCC_MCP_TEST_CRASH_AT_START: exiting before ready');
  process.exit(70);
}
runWorker({ port: processPort(), env: process.env, configDir, hooks, logger });
