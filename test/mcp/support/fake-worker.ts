/**
 * A fake Worker process for unit tests of the Keeper: the test decides when it is ready,
 * what it answers, whether it answers pings, and when it dies.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { KeeperMessage } from '../../../src/mcp/ipc/protocol.js';
import type { WorkerExit, WorkerProcess, WorkerSpawner } from '../../../src/mcp/keeper/worker-process.js';

export interface FakeWorker extends WorkerProcess {
  generation: number;
  received: KeeperMessage[];
  answerPings: boolean;
  alive: boolean;
  sayReady(tools?: Tool[]): void;
  reply(id: number, text: string): void;
  emit(message: unknown): void;
  die(exit?: Partial<WorkerExit>): void;
  calls(): Array<Extract<KeeperMessage, { type: 'call' }>>;
}

export const defaultTools: Tool[] = [{ name: 'echo', inputSchema: { type: 'object' } }];

let nextPid = 1000;

export function createFakeSpawner(setup: (worker: FakeWorker) => void = (w) => w.sayReady()): WorkerSpawner & { workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const spawner = (generation: number) => {
    const messageListeners = new Set<(message: unknown) => void>();
    const exitListeners = new Set<(exit: WorkerExit) => void>();
    const worker: FakeWorker = {
      pid: nextPid++,
      generation,
      received: [],
      answerPings: true,
      alive: true,
      send(message) {
        if (!worker.alive) return;
        worker.received.push(message);
        if (message.type === 'ping' && worker.answerPings) queueMicrotask(() => worker.emit({ type: 'pong', seq: message.seq }));
      },
      onMessage(listener) {
        messageListeners.add(listener);
        return () => messageListeners.delete(listener);
      },
      onExit(listener) {
        exitListeners.add(listener);
        return () => exitListeners.delete(listener);
      },
      kill() {
        worker.die({ signal: 'SIGKILL' });
      },
      sayReady(tools = defaultTools) {
        queueMicrotask(() => worker.emit({ type: 'ready', pid: worker.pid, tools }));
      },
      reply(id, text) {
        worker.emit({ type: 'result', id, result: { content: [{ type: 'text', text }] } });
      },
      emit(message) {
        if (!worker.alive) return;
        for (const listener of [...messageListeners]) listener(message);
      },
      die(exit = {}) {
        if (!worker.alive) return;
        worker.alive = false;
        queueMicrotask(() => {
          for (const listener of [...exitListeners]) listener({ code: exit.code ?? null, signal: exit.signal ?? null, error: exit.error });
        });
      },
      calls: () => worker.received.filter((m): m is Extract<KeeperMessage, { type: 'call' }> => m.type === 'call'),
    };
    workers.push(worker);
    setup(worker);
    return worker;
  };
  return Object.assign(spawner, { workers });
}

/** Polls until `predicate` holds; the generous limit only stops a broken test from hanging. */
export async function until(predicate: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
