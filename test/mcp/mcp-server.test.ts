/**
 * The SDK server wiring in-process (the SDK's real Client over its InMemoryTransport): progress
 * relay, and that a cancelled call gets no response even when the backend answers afterwards.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { createMcpServer, type ToolBackend } from '../../src/mcp/mcp-server.js';
import { until } from './support/fake-worker.js';

async function connect(backend: ToolBackend) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (m) => void received.push(m);
  const server = createMcpServer(backend, createRecordingLogger());
  await server.server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  return { client, received };
}

const tool = { name: 'slow', inputSchema: { type: 'object' as const } };

describe('createMcpServer', () => {
  it('relays progress to a client that asked for it', async () => {
    const { client } = await connect({
      tools: () => [tool],
      call: async ({ onProgress }) => {
        onProgress?.({ progress: 1, total: 2, message: 'half way' });
        return { content: [{ type: 'text', text: 'ok' }] };
      },
    });
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'slow' }, undefined, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half way' }]);
  });

  it('sends nothing for a cancelled call, even if the backend answers after the cancellation', async () => {
    let release: (() => void) | undefined;
    let sawAbort = false;
    const { client, received } = await connect({
      tools: () => [tool],
      call: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (sawAbort = true));
          release = () => resolve({ content: [{ type: 'text', text: 'late' }] });
        }),
    });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow' }, undefined, { signal: controller.signal });
    await until(() => release !== undefined, 'the call to reach the backend');
    controller.abort();
    await expect(pending).rejects.toThrow();
    release!();
    await client.listTools(); // a later round trip: a late response would have arrived before this one
    expect(sawAbort).toBe(true);
    expect(received.filter((m) => 'result' in m && JSON.stringify(m).includes('late'))).toEqual([]);
  });
});
