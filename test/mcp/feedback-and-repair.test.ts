/**
 * collect_feedback end to end (web page answer, no answer, cancellation with no response after
 * it) and self_test's auto-repair of a dead or hung Worker, against the real processes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readMcpStore } from '../../src/mcp/storage/mcp-store.js';
import type { SelfTestResult } from '../../src/mcp/tools/self-test.js';
import { isAlive, startMcpProcess, until, waitHealthy, type McpProcess } from './support/mcp-process.js';

let server: McpProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openQuestions(s: McpProcess): Promise<Array<{ id: string; question: string }>> {
  const page = new URL(await s.pageUrl());
  const response = await fetch(`${page.origin}/api/questions?token=${page.searchParams.get('token')}`);
  return ((await response.json()) as { questions: Array<{ id: string; question: string }> }).questions;
}

async function waitForQuestions(s: McpProcess, count: number) {
  await expect.poll(() => openQuestions(s), { timeout: 30_000 }).toHaveLength(count);
  return openQuestions(s);
}

function feedbackRows(s: McpProcess) {
  const rows = readMcpStore(s.configDir).feedback.sort((a, b) => a.askedAt.localeCompare(b.askedAt));
  return rows.map((row) => ({ question: row.question, outcome: row.outcome, answer: row.answer ?? null, via: row.via ?? null }));
}

describe('collect_feedback', () => {
  it('returns the answer the human gives on the web page', async () => {
    server = await startMcpProcess();
    const pending = server.callJson('collect_feedback', { question: 'Which port should the dev server use?' });
    const [question] = await waitForQuestions(server, 1);
    expect(question!.question).toBe('Which port should the dev server use?');
    const page = new URL(await server.pageUrl());
    const posted = await fetch(`${page.origin}/api/answer?token=${page.searchParams.get('token')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: question!.id, answer: '8080' }),
    });
    expect(posted.status).toBe(200);
    expect(await pending).toEqual({ answered: true, answer: '8080', via: 'web', questionId: question!.id });
    expect(feedbackRows(server)).toEqual([{ question: 'Which port should the dev server use?', outcome: 'answered', answer: '8080', via: 'web' }]);
  });

  it('returns an explicit "no answer" result, not an error, when nobody answers in time', async () => {
    server = await startMcpProcess();
    const result = await server.call('collect_feedback', { question: 'Anyone there?', timeout_seconds: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ answered: false, reason: 'no answer: the user is away' });
    expect(await openQuestions(server)).toEqual([]);
  });

  it('sends no response after the client cancels a pending call, and withdraws the question', async () => {
    server = await startMcpProcess();
    const controller = new AbortController();
    const pending = server.call('collect_feedback', { question: 'Cancel me?', timeout_seconds: 3 }, { signal: controller.signal });
    await waitForQuestions(server, 1);
    const request = server.sent.find((m) => 'method' in m && m.method === 'tools/call' && JSON.stringify(m).includes('Cancel me?'));
    const requestId = (request as { id: number }).id;
    controller.abort('changed my mind');
    await expect(pending).rejects.toThrow();
    expect(server.sent.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId } });
    await waitForQuestions(server, 0); // the cancellation reached the worker
    // A later question with the same time limit goes unanswered: its answer comes after the moment
    // the cancelled call would have timed out, so anything sent for the cancelled id came before it.
    const later = await server.callJson('collect_feedback', { question: 'Still there?', timeout_seconds: 3 });
    expect(later).toMatchObject({ answered: false, reason: 'no answer: the user is away' });
    expect(server.messages.filter((m) => 'id' in m && m.id === requestId)).toEqual([]);
    expect(feedbackRows(server)).toEqual([
      { question: 'Cancel me?', outcome: 'cancelled', answer: null, via: null },
      { question: 'Still there?', outcome: 'no_answer', answer: null, via: null },
    ]);
  });
});

describe('self_test auto-repair', () => {
  it('restarts a dead worker and fills autoRepair', async () => {
    server = await startMcpProcess({ env: { SUPERVISOR_RESTART_DELAY_MS: '60000' } });
    const deadPid = await waitHealthy(server);
    process.kill(deadPid, 'SIGKILL');
    await until(() => server!.stderr().includes('worker stopped: killed by SIGKILL'), 'the keeper noticed');
    expect((await server.health()).supervisor.workerStatus).toBe('restarting');

    const result = await server.callJson<SelfTestResult>('self_test');
    const newPid = result.health.worker.pid!;
    expect(result.health.worker.status).toBe('restarted');
    expect(result.autoRepair).toEqual({ action: 'worker_restarted', previousPid: deadPid, newPid, reason: 'killed by SIGKILL' });
    expect(isAlive(newPid)).toBe(true);
    expect(result.summary).toBe(
      `Auto-repair done: the worker (pid ${deadPid}) had stopped (killed by SIGKILL) and was restarted as pid ${newPid}. All other checks are ok.`,
    );
    expect(result.diagnostics.restartHistory).toEqual([expect.objectContaining({ trigger: 'self_test', previousPid: deadPid, newPid, outcome: 'ready' })]);
    expect(await server.health()).toMatchObject({ supervisor: { workerStatus: 'healthy', restartCount: 1 }, worker: { pid: newPid } });
    // The repaired worker serves calls, and the next self_test finds nothing to repair.
    await server.callJson('supervisor_status');
    expect((await server.callJson<SelfTestResult>('self_test')).autoRepair).toBeUndefined();
  });

  it('kills and restarts a worker that is alive but does not answer', async () => {
    server = await startMcpProcess({ env: { CCC_MCP_TEST_IGNORE_PINGS: 'gen:1', SUPERVISOR_HEALTH_TIMEOUT_MS: '300' } });
    const hungPid = await waitHealthy(server);
    const result = await server.callJson<SelfTestResult>('self_test');
    expect(result.health.worker.status).toBe('restarted');
    expect(result.autoRepair).toMatchObject({ action: 'worker_restarted', previousPid: hungPid, reason: 'did not answer a health check within 300 ms' });
    await until(() => !isAlive(hungPid), 'the hung worker is gone');
  });
});
