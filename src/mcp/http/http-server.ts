/**
 * The HTTP side of `ccc mcp`, on 127.0.0.1 only:
 *   GET  /api/health              health report (no token: it tells nothing private)
 *   GET  /?token=T                the feedback page
 *   GET  /api/questions?token=T   the open questions, as JSON
 *   POST /api/answer?token=T      {"id", "answer"}: answers one open question
 * The token is given (kept per config dir: page-token.ts) or random, compared in constant time,
 * and shown only in the server log and `ccc sessions`, so only the user can answer for the user.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FeedbackBoard } from '../feedback/board.js';
import { feedbackPage } from './feedback-page.js';
import type { HealthReport } from './health-report.js';

export interface McpHttpServer {
  port: number;
  /** The feedback page, token included. */
  pageUrl: string;
  /** `http://127.0.0.1:<port>`: the page's address without the token, for log lines. */
  origin: string;
  healthUrl: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

export async function startHttpServer(options: { port: number; token?: string; board: FeedbackBoard; health(): HealthReport }): Promise<McpHttpServer> {
  const token = options.token ?? randomBytes(18).toString('base64url');
  const server = process.getBuiltinModule('node:http').createServer((req, res) => {
    void route(req, res).catch((error: Error) => send(res, 500, { error: error.message }));
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/api/health') return send(res, 200, options.health());
    if (!tokenMatches(url.searchParams.get('token'), token))
      return send(res, 401, { error: 'missing or wrong token: open the address that `ccc sessions` lists for this server (it is also in the ccc mcp log)' });
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
      });
      return res.end(feedbackPage());
    }
    if (req.method === 'GET' && url.pathname === '/api/questions') return send(res, 200, { questions: options.board.pending() });
    if (req.method === 'POST' && url.pathname === '/api/answer') return answer(req, res);
    return send(res, 404, { error: `no such route: ${req.method} ${url.pathname}` });
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req);
    if (body === undefined) return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
    let parsed: { id?: unknown; answer?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      return send(res, 400, { error: 'the body must be JSON: {"id": string, "answer": string}' });
    }
    if (typeof parsed?.id !== 'string' || typeof parsed.answer !== 'string' || parsed.answer.trim() === '') {
      return send(res, 400, { error: 'expected {"id": string, "answer": non-empty string}' });
    }
    if (!options.board.answer(parsed.id, parsed.answer.trim()))
      return send(res, 404, { error: 'that question is no longer open (answered, withdrawn or timed out)' });
    return send(res, 200, { ok: true });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    port,
    pageUrl: `${base}/?token=${token}`,
    origin: base,
    healthUrl: `${base}/api/health`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: http.ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the client still gets its 413.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
