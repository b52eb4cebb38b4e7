/**
 * A local webhook for the notification tests: a real HTTP server on 127.0.0.1 that records every
 * request (method, path, headers, body) and answers as told: 200, an error status, or never.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type ReceiverAnswer = { status: number } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  requests: ReceivedRequest[];
  /** The JSON bodies received, in order. */
  json(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: ReceiverAnswer = { status: 200 }): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      if (answer === 'hang') return; // never answers: the socket stays open until the client gives up or the server closes
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.status < 300 ? 'ok' : 'failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    requests,
    json: () => requests.map((r) => JSON.parse(r.body) as Record<string, unknown>),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A `notify-send` stand-in in a directory of its own (put it first on PATH): each call appends its
 * arguments, as one JSON line, to `calls`.
 */
export function standInNotifySend(dir: string, fs: typeof import('node:fs'), path: typeof import('node:path')): { bin: string; calls: () => string[][] } {
  const bin = path.join(dir, 'stand-in-bin');
  const calls = path.join(dir, 'notify-send-calls.jsonl');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'notify-send'),
    `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(calls)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    { mode: 0o755 },
  );
  return {
    bin,
    calls: () =>
      fs.existsSync(calls)
        ? fs
            .readFileSync(calls, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as string[])
        : [],
  };
}
