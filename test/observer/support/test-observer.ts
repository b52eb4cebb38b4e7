/** A real `ws` client that records everything an observer receives, for the observer tests. */
import WebSocket from 'ws';

interface Received {
  type: string;
  [key: string]: unknown;
}

export interface TestObserver {
  ws: WebSocket;
  messages: Received[];
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Waits until some received message satisfies `predicate`. */
  waitFor(predicate: (message: Received) => boolean, what: string): Promise<Received>;
  /** The bytes of every `pty` message after the snapshot, concatenated. */
  liveBytes(): Buffer;
  snapshot(): Buffer | undefined;
}

export function wsUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws');
}

export async function connectObserver(url: string, options: WebSocket.ClientOptions = {}): Promise<TestObserver> {
  const ws = new WebSocket(wsUrl(url), options);
  ws.on('error', () => {});
  const messages: Received[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data, isBinary) => {
    // The protocol is JSON text; a binary frame is a defect (browsers would get a Blob).
    if (isBinary) throw new Error('observer received a binary frame');
    messages.push(JSON.parse((data as Buffer).toString()) as Received);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });

  async function waitFor(predicate: (message: Received) => boolean, what: string): Promise<Received> {
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`connection closed while waiting for ${what}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  const ptyMessages = () => messages.filter((m) => m.type === 'pty');
  return {
    ws,
    messages,
    closed,
    waitFor,
    liveBytes: () =>
      Buffer.concat(
        ptyMessages()
          .filter((m) => !m.snapshot)
          .map((m) => Buffer.from(m.data as string, 'base64')),
      ),
    snapshot: () => {
      const first = ptyMessages()[0];
      return first?.snapshot ? Buffer.from(first.data as string, 'base64') : undefined;
    },
  };
}

/** Status code of a refused WebSocket upgrade. */
export function upgradeStatus(url: string, options: WebSocket.ClientOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('error', () => {});
  });
}
