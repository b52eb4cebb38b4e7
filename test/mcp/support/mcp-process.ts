/**
 * Starts the real `ccc mcp` (node dist/cli/main.js mcp) and connects the SDK's real Client to it
 * over stdio, in a private config dir. Records every message the server sends, and its stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { cccBin } from '../../support/claude-env.js';
import type { HealthReport } from '../../../src/mcp/http/health-report.js';
import { until } from './fake-worker.js';

export interface McpProcess {
  client: Client;
  transport: StdioClientTransport;
  configDir: string;
  /** Every JSON-RPC message the server sent, in order. */
  messages: JSONRPCMessage[];
  /** Every JSON-RPC message the client sent, in order. */
  sent: JSONRPCMessage[];
  /** Errors the client transport saw (a non-JSON line on stdout would land here). */
  transportErrors: Error[];
  stderr(): string;
  pageUrl(): Promise<string>;
  health(): Promise<HealthReport>;
  call(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>;
  /** The structured result of a successful call (fails the test on an error result). */
  callJson<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  close(): Promise<void>;
}

export async function startMcpProcess(options: { env?: Record<string, string>; args?: string[] } = {}): Promise<McpProcess> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-mcp-')));
  const configDir = path.join(root, 'config');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cccBin, 'mcp', ...(options.args ?? [])],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      CCC_CONFIG_DIR: configDir,
      SUPERVISOR_RESTART_DELAY_MS: '200',
      ...options.env,
    },
    stderr: 'pipe',
    cwd: root,
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const messages: JSONRPCMessage[] = [];
  const transportErrors: Error[] = [];
  // The SDK's Protocol.connect chains a handler already set on the transport: this one sees every message first.
  transport.onmessage = (message) => void messages.push(message);
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    sent.push(message);
    return send(message);
  };
  const client = new Client({ name: 'ccc-test', version: '1.0.0' }, { capabilities: {} });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);

  const pageUrl = async () => {
    await until(() => /feedback page: (\S+)/.test(stderr), 'the feedback page URL on stderr');
    return stderr.match(/feedback page: (\S+)/)![1]!;
  };
  const call = (name: string, args: Record<string, unknown> = {}, requestOptions?: RequestOptions) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...requestOptions }) as Promise<CallToolResult>;
  return {
    client,
    transport,
    configDir,
    messages,
    sent,
    transportErrors,
    stderr: () => stderr,
    pageUrl,
    async health() {
      const url = new URL(await pageUrl());
      return (await (await fetch(`${url.origin}/api/health`)).json()) as HealthReport;
    },
    call,
    async callJson(name, args, requestOptions) {
      const result = await call(name, args, requestOptions);
      if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.content)}`);
      return result.structuredContent as never;
    },
    async close() {
      await client.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export function resultText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls /api/health until a healthy Worker (other than `notPid`) runs; returns its pid. */
export async function waitHealthy(s: McpProcess, notPid?: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (Date.now() - start > 30_000) throw new Error(`no healthy worker within 30 s; stderr:\n${s.stderr()}`);
    const health = await s.health();
    if (health.supervisor.workerStatus === 'healthy' && health.worker.pid && health.worker.pid !== notPid) return health.worker.pid;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { until };
