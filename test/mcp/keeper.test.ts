/**
 * The Keeper's Worker lifecycle against fake Workers: forwarding, exactly-once answers,
 * queueing, restarts, the fatal state, health checks, cancellation, repair, the feedback relay.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createFeedbackBoard } from '../../src/mcp/feedback/board.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { createMcpKeeper, type McpKeeper, type McpKeeperOptions } from '../../src/mcp/keeper/keeper.js';
import { createFakeSpawner, defaultTools, until, type FakeWorker } from './support/fake-worker.js';

const fastOptions: McpKeeperOptions['options'] = {
  max_restart_attempts: 5,
  restart_delay_ms: 10,
  health_interval_ms: 10_000,
  health_timeout_ms: 50,
  health_failures: 3,
  queue_timeout_ms: 10_000,
  restart_window_ms: 600_000,
  ready_timeout_ms: 10_000,
};

let keeper: McpKeeper | undefined;
afterEach(() => {
  keeper?.stop();
  vi.useRealTimers();
});

function start(spawn: ReturnType<typeof createFakeSpawner>, overrides: Partial<McpKeeperOptions['options']> = {}, extra: Partial<McpKeeperOptions> = {}) {
  const events = { toolsChanged: 0, fatal: [] as string[] };
  const board = createFeedbackBoard();
  keeper = createMcpKeeper({
    options: { ...fastOptions, ...overrides },
    spawn,
    logger: createRecordingLogger(),
    board,
    initialTools: defaultTools,
    onToolsChanged: () => events.toolsChanged++,
    onFatal: (message) => events.fatal.push(message),
    ...extra,
  });
  keeper.start();
  return { keeper, events, board };
}

const call = (s: McpKeeper, signal = new AbortController().signal) => s.call({ name: 'echo', arguments: { x: 1 }, signal });
const text = (result: CallToolResult | 'cancelled') => (result === 'cancelled' ? 'cancelled' : (result.content[0] as { text: string }).text);

async function nextCall(worker: FakeWorker, count: number) {
  await until(() => worker.calls().length >= count, `call #${count} to reach worker ${worker.pid}`);
  return worker.calls()[count - 1]!;
}

describe('McpKeeper', () => {
  it('forwards a call and answers it once, ignoring a duplicate result', async () => {
    const spawn = createFakeSpawner();
    const { keeper } = start(spawn);
    const pending = call(keeper);
    const worker = spawn.workers[0]!;
    const forwarded = await nextCall(worker, 1);
    expect(forwarded).toMatchObject({ name: 'echo', arguments: { x: 1 } });
    worker.reply(forwarded.id, 'first');
    worker.reply(forwarded.id, 'second');
    expect(text(await pending)).toBe('first');
    expect(keeper.snapshot().inFlight).toBe(0);
  });

  it('relays progress of a running call to the caller', async () => {
    const spawn = createFakeSpawner();
    const { keeper } = start(spawn);
    const updates: unknown[] = [];
    const pending = keeper.call({ name: 'echo', arguments: {}, signal: new AbortController().signal, onProgress: (u) => updates.push(u) });
    const forwarded = await nextCall(spawn.workers[0]!, 1);
    spawn.workers[0]!.emit({ type: 'progress', id: forwarded.id, progress: 10, total: 300, message: 'waiting' });
    spawn.workers[0]!.reply(forwarded.id, 'done');
    expect(text(await pending)).toBe('done');
    expect(updates).toEqual([{ progress: 10, total: 300, message: 'waiting' }]);
  });

  it('queues calls that arrive before the worker is ready and forwards them in order', async () => {
    const spawn = createFakeSpawner(() => {});
    const { keeper } = start(spawn);
    const first = call(keeper);
    const second = keeper.call({ name: 'echo', arguments: { x: 2 }, signal: new AbortController().signal });
    await until(() => keeper.snapshot().queued === 2, 'two queued calls');
    const worker = spawn.workers[0]!;
    expect(worker.calls()).toHaveLength(0);
    worker.sayReady();
    const [a, b] = [await nextCall(worker, 1), await nextCall(worker, 2)];
    expect([a.arguments.x, b.arguments.x]).toEqual([1, 2]);
    worker.reply(b.id, 'b');
    worker.reply(a.id, 'a');
    expect([text(await first), text(await second)]).toEqual(['a', 'b']);
  });

  it('answers an in-flight call with WORKER_CRASHED when the worker dies, restarts it, and serves later calls', async () => {
    const spawn = createFakeSpawner();
    const { keeper } = start(spawn);
    const inFlight = call(keeper);
    await nextCall(spawn.workers[0]!, 1);
    spawn.workers[0]!.die({ signal: 'SIGKILL' });
    expect(text(await inFlight)).toMatch(/^\[WORKER_CRASHED\] .*killed by SIGKILL/);
    const later = call(keeper);
    await until(() => spawn.workers.length === 2, 'a second worker');
    const forwarded = await nextCall(spawn.workers[1]!, 1);
    spawn.workers[1]!.reply(forwarded.id, 'after restart');
    expect(text(await later)).toBe('after restart');
    const snapshot = keeper.snapshot();
    expect(snapshot.restartCount).toBe(1);
    expect(snapshot.history[0]).toMatchObject({ trigger: 'crash', previousPid: spawn.workers[0]!.pid, newPid: spawn.workers[1]!.pid, outcome: 'ready' });
    expect(spawn.workers[1]!.generation).toBe(2);
  });

  it('answers a queued call with WORKER_UNAVAILABLE when no worker is ready within queue_timeout_ms', async () => {
    const spawn = createFakeSpawner();
    const { keeper } = start(spawn, { restart_delay_ms: 60_000, queue_timeout_ms: 30 });
    await until(() => keeper.snapshot().workerStatus === 'healthy', 'ready');
    spawn.workers[0]!.die({ code: 1 });
    await until(() => keeper.snapshot().workerStatus === 'restarting', 'restarting');
    const result = await call(keeper);
    expect(text(result)).toMatch(/^\[WORKER_UNAVAILABLE\] The ccc MCP worker is temporarily unavailable/);
    expect(result !== 'cancelled' && result.isError).toBe(true);
  });

  it('gives up after max_restart_attempts restarts in the window, reports it, and answers calls with WORKER_FATAL', async () => {
    const spawn = createFakeSpawner((worker) => worker.die({ code: 70 }));
    const { keeper, events } = start(spawn, { max_restart_attempts: 2 });
    await until(() => keeper.snapshot().workerStatus === 'fatal', 'fatal');
    expect(spawn.workers).toHaveLength(3); // the first start and 2 restarts
    expect(events.fatal).toHaveLength(1);
    expect(events.fatal[0]).toMatch(/restarted 2 times in the last 10 minutes.*max_restart_attempts=2/);
    expect(text(await call(keeper))).toMatch(/^\[WORKER_FATAL\] .*self_test/);
    expect(keeper.tools()).toEqual(defaultTools);
  });

  it('answers calls waiting in the queue when the keeper enters the fatal state', async () => {
    const spawn = createFakeSpawner((worker) => worker.die({ code: 70 }));
    const { keeper } = start(spawn, { max_restart_attempts: 1, restart_delay_ms: 50 });
    const queued = call(keeper);
    expect(text(await queued)).toMatch(/^\[WORKER_FATAL\]/);
  });

  it('forwards a cancellation, resolves the call as cancelled, and drops a late result', async () => {
    const spawn = createFakeSpawner();
    const { keeper } = start(spawn);
    const controller = new AbortController();
    const pending = call(keeper, controller.signal);
    const forwarded = await nextCall(spawn.workers[0]!, 1);
    controller.abort('user pressed escape');
    expect(await pending).toBe('cancelled');
    expect(spawn.workers[0]!.received).toContainEqual({ type: 'cancel', id: forwarded.id, reason: 'user pressed escape' });
    spawn.workers[0]!.reply(forwarded.id, 'too late');
    expect(keeper.snapshot().inFlight).toBe(0);
  });

  it('drops a call cancelled while queued without ever forwarding it', async () => {
    const spawn = createFakeSpawner(() => {});
    const { keeper } = start(spawn);
    const controller = new AbortController();
    const pending = call(keeper, controller.signal);
    await until(() => keeper.snapshot().queued === 1, 'queued');
    controller.abort();
    expect(await pending).toBe('cancelled');
    spawn.workers[0]!.sayReady();
    await until(() => keeper.snapshot().workerStatus === 'healthy', 'ready');
    expect(spawn.workers[0]!.calls()).toHaveLength(0);
  });

  it('restarts a worker that misses health_failures pings in a row while idle', async () => {
    const spawn = createFakeSpawner((worker) => {
      worker.answerPings = worker.generation > 1;
      worker.sayReady();
    });
    const logger = createRecordingLogger();
    const { keeper } = start(spawn, { health_interval_ms: 5, health_timeout_ms: 5 }, { logger });
    await until(() => spawn.workers.length === 2, 'a restart');
    const misses = logger.lines.filter((l) => l.message.includes('health check missed'));
    expect(misses.map((l) => l.message.match(/missed \((\d)\/3\)/)?.[1])).toEqual(['1', '2', '3']);
    await until(() => keeper.snapshot().history[0]?.outcome === 'ready', 'restart settled');
    expect(keeper.snapshot().history[0]).toMatchObject({ trigger: 'health_check', reason: '3 health checks missed in a row' });
  });

  it('does not restart a worker that misses pings while a tool call runs (busy, not hung)', async () => {
    const spawn = createFakeSpawner((worker) => {
      worker.answerPings = false;
      worker.sayReady();
    });
    const { keeper } = start(spawn, { health_interval_ms: 5, health_timeout_ms: 5 });
    const pending = call(keeper);
    const forwarded = await nextCall(spawn.workers[0]!, 1);
    const pingsBefore = spawn.workers[0]!.received.filter((m) => m.type === 'ping').length;
    await until(() => spawn.workers[0]!.received.filter((m) => m.type === 'ping').length >= pingsBefore + 6, 'six more pings');
    expect(keeper.snapshot().workerStatus).toBe('busy');
    spawn.workers[0]!.reply(forwarded.id, 'done');
    expect(text(await pending)).toBe('done');
    expect(spawn.workers).toHaveLength(1);
  });

  it('announces a changed tool set after a restart, and not an unchanged one', async () => {
    const spawn = createFakeSpawner((worker) =>
      worker.sayReady(worker.generation === 3 ? [...defaultTools, { name: 'extra', inputSchema: { type: 'object' } }] : defaultTools),
    );
    const { keeper, events } = start(spawn);
    await until(() => keeper.snapshot().workerStatus === 'healthy', 'ready');
    spawn.workers[0]!.die();
    await until(() => spawn.workers.length === 2 && keeper.snapshot().workerStatus === 'healthy', 'second ready');
    expect(events.toolsChanged).toBe(0);
    spawn.workers[1]!.die();
    await until(() => keeper.tools().length === 2, 'new tools');
    expect(events.toolsChanged).toBe(1);
  });

  describe('repair (self_test)', () => {
    it('reports ok for a healthy worker', async () => {
      const spawn = createFakeSpawner();
      const { keeper } = start(spawn);
      expect(await keeper.repair()).toEqual({ kind: 'ok', pid: spawn.workers[0]!.pid });
      expect(spawn.workers).toHaveLength(1);
    });

    it('restarts a dead worker at once instead of waiting for the restart delay', async () => {
      const spawn = createFakeSpawner();
      const { keeper } = start(spawn, { restart_delay_ms: 60_000 });
      await until(() => keeper.snapshot().workerStatus === 'healthy', 'ready');
      spawn.workers[0]!.die({ signal: 'SIGKILL' });
      await until(() => keeper.snapshot().workerStatus === 'restarting', 'restarting');
      const outcome = await keeper.repair();
      expect(outcome).toEqual({ kind: 'restarted', previousPid: spawn.workers[0]!.pid, newPid: spawn.workers[1]!.pid, reason: 'killed by SIGKILL' });
      expect(keeper.snapshot().history).toMatchObject([{ trigger: 'self_test', outcome: 'ready' }]);
    });

    it('kills and restarts a worker that does not answer a ping and runs nothing', async () => {
      const spawn = createFakeSpawner((worker) => {
        worker.answerPings = worker.generation > 1;
        worker.sayReady();
      });
      // A fake clock: the unanswered ping's time limit and any restart delay pass when the test says.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
      const { keeper } = start(spawn);
      await vi.waitFor(() => expect(keeper.snapshot().workerStatus).toBe('healthy'));
      const repaired = keeper.repair();
      await vi.advanceTimersByTimeAsync(fastOptions.health_timeout_ms); // the ping goes unanswered
      const outcome = await repaired;
      expect(outcome).toMatchObject({ kind: 'restarted', previousPid: spawn.workers[0]!.pid, newPid: spawn.workers[1]!.pid });
      expect(spawn.workers[0]!.alive).toBe(false);
      // A restart the killed worker's exit had scheduled would be due now: none may start.
      await vi.advanceTimersByTimeAsync(fastOptions.restart_delay_ms);
      expect(spawn.workers).toHaveLength(2);
      expect(keeper.snapshot().workerStatus).toBe('healthy');
    });

    it('tries again from the fatal state and reports a failure when the new worker dies too', async () => {
      const spawn = createFakeSpawner((worker) => worker.die({ code: 70 }));
      const { keeper } = start(spawn, { max_restart_attempts: 0 });
      await until(() => keeper.snapshot().workerStatus === 'fatal', 'fatal');
      const outcome = await keeper.repair();
      expect(outcome).toMatchObject({ kind: 'failed', error: 'exited with code 70' });
      expect(spawn.workers).toHaveLength(2);
      expect(keeper.snapshot().workerStatus).toBe('fatal');
    });
  });

  describe('stop()', () => {
    const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

    it('kills a healthy worker and leaves no health check pending', async () => {
      fakeTimers();
      const spawn = createFakeSpawner();
      const { keeper } = start(spawn, { health_interval_ms: 1000 });
      await vi.advanceTimersByTimeAsync(0);
      expect(keeper.snapshot().workerStatus).toBe('healthy');
      keeper.stop();
      expect(spawn.workers[0]!.alive).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
      expect(text(await call(keeper))).toMatch(/^\[SERVER_STOPPING\] The ccc MCP server is shutting down/);
    });

    it('answers queued calls and cancels a pending restart', async () => {
      fakeTimers();
      const spawn = createFakeSpawner();
      const { keeper } = start(spawn, { restart_delay_ms: 60_000 });
      await vi.advanceTimersByTimeAsync(0);
      spawn.workers[0]!.die({ code: 1 });
      await vi.advanceTimersByTimeAsync(0);
      expect(keeper.snapshot().workerStatus).toBe('restarting');
      const queued = call(keeper);
      await vi.advanceTimersByTimeAsync(0);
      expect(keeper.snapshot().queued).toBe(1);
      keeper.stop();
      expect(text(await queued)).toMatch(/^\[SERVER_STOPPING\] The ccc MCP server is shutting down/);
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(spawn.workers).toHaveLength(1);
    });
  });

  it('shows a question the worker opens on the board, relays the answer, and withdraws it when the worker dies', async () => {
    const spawn = createFakeSpawner();
    const { keeper, board } = start(spawn);
    await until(() => keeper.snapshot().workerStatus === 'healthy', 'ready');
    const worker = spawn.workers[0]!;
    worker.emit({ type: 'feedback-open', questionId: 'q1', question: 'Which database?' });
    worker.emit({ type: 'feedback-open', questionId: 'q2', question: 'Ship it?' });
    expect(board.pending().map((q) => q.question)).toEqual(['Which database?', 'Ship it?']);
    expect(board.answer('q1', 'SQLite')).toBe(true);
    expect(worker.received).toContainEqual({ type: 'feedback-answer', questionId: 'q1', answer: 'SQLite' });
    worker.die();
    await until(() => board.pending().length === 0, 'q2 withdrawn');
    expect(board.answer('q2', 'yes')).toBe(false);
  });
});
