/**
 * The observer port's connection bounds (src/observer/connection-guard.ts) on a real HTTP server and
 * real sockets: the deadline for a request closes a client that sends nothing, one that trickles
 * headers and a refused upgrade that the client keeps open; past the cap the oldest connection
 * without a request goes first, and a newcomer only when every place holds a real one; the cap
 * leaves the run its descriptors.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionCap, guardConnections, RUN_RESERVED_DESCRIPTORS, type ConnectionGuard } from '../../src/observer/connection-guard.js';
import { silentLogger } from '../../src/observer/observer-logger.js';

let server: http.Server | undefined;
const clients: net.Socket[] = [];
const accepted: net.Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const socket of accepted.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function guarded(options: { maxConnections: number; headersMs: number }): Promise<{ port: number; guard: ConnectionGuard }> {
  server = http.createServer({ connectionsCheckingInterval: 50 }, (_request, response) => response.end('page'));
  const guard = guardConnections(server, { cap: { maxConnections: options.maxConnections }, logger: silentLogger, headersMs: options.headersMs });
  server.on('upgrade', (request: http.IncomingMessage, socket: net.Socket) => {
    if (request.url?.includes('token')) return void accepted.push(socket); // held open, as an observer's is
    guard.refuse(socket, 'HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, guard };
}

interface Client {
  socket: net.Socket;
  closed: () => boolean;
  received: () => string;
}

/** A client socket that never closes its own side; `send` is written once connected. */
async function client(port: number, send = ''): Promise<Client> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  clients.push(socket);
  let closed = false;
  let received = '';
  // The server's FIN (or its reset): the client never closes its own side.
  socket.on('end', () => (closed = true));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  socket.on('data', (data) => (received += data.toString()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (send) socket.write(send);
  return { socket, closed: () => closed, received: () => received };
}

const upgrade = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;

describe("the observer port's connection guard", () => {
  it('closes, within the deadline, a client that sends nothing, one that trickles its headers and a refused upgrade it keeps open', async () => {
    const { port } = await guarded({ maxConnections: 100, headersMs: 300 });
    const silent = await client(port);
    const trickle = await client(port, 'GET / HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => trickle.socket.write('X-Slow: a\r\n'), 50);
    const refused = await client(port, upgrade('/'));
    const observer = await client(port, upgrade('/?token'));
    try {
      await vi.waitFor(() => expect([silent.closed(), trickle.closed(), refused.closed()]).toEqual([true, true, true]), { timeout: 10_000 });
    } finally {
      clearInterval(timer);
    }
    expect(refused.received()).toMatch(/^HTTP\/1.1 401 Unauthorized/);
    // An upgraded connection is no longer waiting for a request: the deadline does not touch it.
    expect(observer.closed()).toBe(false);
  });

  it('past the cap, the oldest connection without a request goes first, so a real request gets in; with every place held, the newcomer goes', async () => {
    const { port } = await guarded({ maxConnections: 3, headersMs: 60_000 });
    const first = await client(port);
    const second = await client(port);
    const third = await client(port);
    const page = await client(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await vi.waitFor(() => expect(page.received()).toMatch(/page$/));
    await vi.waitFor(() => expect(first.closed()).toBe(true));
    expect([second.closed(), third.closed()]).toEqual([false, false]);

    // Three observers hold every place: a fourth connection is the one closed.
    for (const c of [second, third, page]) c.socket.destroy();
    const observers = [await client(port, upgrade('/?token')), await client(port, upgrade('/?token')), await client(port, upgrade('/?token'))];
    await vi.waitFor(() => expect(accepted).toHaveLength(3));
    const late = await client(port, upgrade('/?token'));
    await vi.waitFor(() => expect(late.closed()).toBe(true));
    expect(observers.map((o) => o.closed())).toEqual([false, false, false]);
  });

  it('the cap is max_observers and the joiners around them, within what the open-file limit leaves the run', () => {
    expect(connectionCap(32, 20_000, 40)).toEqual({ maxConnections: 128 });
    expect(connectionCap(32, undefined, 40)).toEqual({ maxConnections: 128 });
    expect(connectionCap(256, 512, 60)).toEqual({ maxConnections: 512 - 60 - RUN_RESERVED_DESCRIPTORS, limitedBy: { openFileLimit: 512, open: 60 } });
    // Never none at all: one place, even when the limit leaves nothing.
    expect(connectionCap(32, 100, 60).maxConnections).toBe(1);
  });
});
