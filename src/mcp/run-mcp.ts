/**
 * `ccc mcp`: picks the mode, connects the MCP server to stdio, and runs until the client closes
 * stdin or a SIGTERM/SIGINT arrives; then stops the Worker, the HTTP server and the database.
 * Stdout carries only the MCP protocol; every log line goes to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLogger } from '../log/logger.js';
import type { McpOptions } from './options.js';
import { startSingleProcessServer } from './run-single-process.js';
import { startKeeperServer } from './keeper/run-keeper.js';

export interface McpIo {
  stdin: Readable;
  stdout: Writable;
  env: NodeJS.ProcessEnv;
}

export async function runMcp(options: McpOptions, io: McpIo): Promise<number> {
  const logger = createLogger({ level: options.log_level, module: options.enabled ? 'mcp-supervisor' : 'mcp', stderr: true });
  logger.info(options.enabled ? 'starting in supervisor mode' : 'starting in single-process mode (no supervisor)', {
    pid: process.pid,
    config_dir: options.configDir,
  });
  // The Worker's test hooks misbehave on purpose: one left in a user's environment is said, not silent (worker/test-hooks.ts).
  for (const name of Object.keys(io.env).filter((key) => key.startsWith('CCC_MCP_TEST_') && io.env[key]))
    logger.warn(`${name} is set: a test hook of the MCP Worker, which makes it misbehave on purpose; unset it unless a test set it`);
  const running = await (options.enabled ? startKeeperServer : startSingleProcessServer)(options, io.env, logger);
  // The Keeper's job is to keep the connection: a stray rejection somewhere is logged, not fatal.
  const onRejection = (reason: unknown) => logger.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  process.on('unhandledRejection', onRejection);
  const ended = new Promise<string>((resolve) => {
    io.stdin.once('end', () => resolve('the client closed stdin'));
    io.stdin.once('close', () => resolve('the client closed stdin'));
    io.stdout.once('error', (error) => resolve(`stdout failed (${error.message}): the client is gone`));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
    running.mcp.server.onclose = () => resolve('the MCP transport closed');
  });
  await running.mcp.server.connect(new StdioServerTransport(io.stdin, io.stdout));
  const reason = await ended;
  logger.info(`shutting down: ${reason}`);
  await running.close();
  await running.mcp.server.close().catch(() => {});
  process.off('unhandledRejection', onRejection);
  return 0;
}
