/** The HTTP server over a real socket: health without token, everything else behind the token. */
import { afterEach, describe, expect, it } from 'vitest';
import { createFeedbackBoard } from '../../src/mcp/feedback/board.js';
import { healthReport } from '../../src/mcp/http/health-report.js';
import { startHttpServer, type McpHttpServer } from '../../src/mcp/http/http-server.js';

let server: McpHttpServer | undefined;
afterEach(async () => server?.close());

async function start() {
  const board = createFeedbackBoard();
  server = await startHttpServer({
    port: 0,
    token: 'secret-token',
    board,
    health: () => healthReport({ mode: 'supervisor', startedAt: Date.now(), workerStatus: 'healthy', workerPid: 12, restartCount: 2 }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  return { board, base };
}

describe('HTTP server', () => {
  it('serves /api/health with the supervisor fields of 003 HEALTH-API', async () => {
    const { base } = await start();
    const response = await fetch(`${base}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      supervisor: { enabled: true, pid: process.pid, workerStatus: 'healthy', restartCount: 2 },
      worker: { pid: 12 },
    });
  });

  it('refuses the page and the question API without the right token', async () => {
    const { base } = await start();
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/?token=secret-tokeX`)).status).toBe(401);
    expect((await fetch(`${base}/api/questions?token=secret`)).status).toBe(401);
    expect((await fetch(`${base}/api/answer`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect(server!.pageUrl).toBe(`${base}/?token=secret-token`);
  });

  it('shows open questions and takes an answer once', async () => {
    const { board, base } = await start();
    const answers: string[] = [];
    board.open({ id: 'q1', question: 'Which <b>port</b>?' }, (a) => answers.push(a));
    const page = await fetch(server!.pageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Questions from the agent');
    const questions = (await (await fetch(`${base}/api/questions?token=secret-token`)).json()) as { questions: Array<{ id: string; question: string }> };
    expect(questions.questions).toMatchObject([{ id: 'q1', question: 'Which <b>port</b>?' }]);
    const post = (body: unknown) =>
      fetch(`${base}/api/answer?token=secret-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    expect((await post('not json')).status).toBe(400);
    expect((await post({ id: 'q1', answer: '  ' })).status).toBe(400);
    expect((await post({ id: 'q1', answer: ' 8080 ' })).status).toBe(200);
    expect((await post({ id: 'q1', answer: '9090' })).status).toBe(404);
    expect(answers).toEqual(['8080']);
    expect((await post({ id: 'q1', answer: 'x'.repeat(70_000) })).status).toBe(413);
  });
});
