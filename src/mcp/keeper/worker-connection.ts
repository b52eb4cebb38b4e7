/**
 * The Keeper's view of one running Worker: waits for `ready`, forwards tool calls and matches
 * their results by id, forwards cancellations, pings, and settles every pending call when the
 * Worker exits. One connection per Worker process; a restart makes a new one.
 *
 * Guarantees: every `call` settles exactly once: with the Worker's result, as `cancelled` (the
 * caller's signal aborted; a `cancel` was sent and a late result is dropped), or as `crashed`
 * (the Worker exited first).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseWorkerMessage, type WorkerMessage } from '../ipc/protocol.js';
import type { Logger } from '../../log/logger.js';
import type { WorkerExit, WorkerProcess } from './worker-process.js';
import { childEndText } from '../../process/child-end.js';

type CallOutcome = { kind: 'result'; result: CallToolResult } | { kind: 'cancelled' } | { kind: 'crashed'; exit: WorkerExit };

export interface ToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export type FeedbackMessage = Extract<WorkerMessage, { type: 'feedback-open' | 'feedback-close' }>;

export interface WorkerConnection {
  readonly pid: number | undefined;
  readonly generation: number;
  /** Resolves with the Worker's tools when it says `ready`; rejects if it exits or times out first. */
  readonly ready: Promise<Tool[]>;
  call(request: ToolCallRequest): Promise<CallOutcome>;
  /** True when a pong arrived within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  inFlight(): number;
  answerFeedback(questionId: string, answer: string): void;
  /** Kills the process; `reason` is what the exit will be attributed to. */
  kill(reason: string): void;
  /** The exit, with the reason given to `kill` if we killed it. Fires once. */
  onExit(listener: (exit: WorkerExit & { reason?: string }) => void): () => void;
}

export interface ConnectWorkerOptions {
  process: WorkerProcess;
  generation: number;
  readyTimeoutMs: number;
  logger: Logger;
  onFeedback(message: FeedbackMessage): void;
}

interface PendingCall {
  settle(outcome: CallOutcome): void;
  onProgress?: ToolCallRequest['onProgress'];
}

export function connectWorker(options: ConnectWorkerOptions): WorkerConnection {
  const { process: child, logger } = options;
  const pending = new Map<number, PendingCall>();
  const pongWaiters = new Map<number, () => void>();
  let nextId = 1;
  let nextSeq = 1;
  let killReason: string | undefined;
  let exit: (WorkerExit & { reason?: string }) | undefined;

  let markReady!: (tools: Tool[]) => void;
  let failReady!: (error: Error) => void;
  const ready = new Promise<Tool[]>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {}); // observed by whoever awaits it; never an unhandled rejection
  const readyTimer = setTimeout(() => {
    logger.error(`worker did not become ready within ${options.readyTimeoutMs} ms; killing it`, { pid: child.pid });
    connection.kill(`did not become ready within ${options.readyTimeoutMs} ms`);
  }, options.readyTimeoutMs);

  const onMessage = (raw: unknown) => {
    const message = parseWorkerMessage(raw);
    if (!message) {
      logger.warn('dropped a malformed message from the worker', { pid: child.pid, message: JSON.stringify(raw)?.slice(0, 200) });
      return;
    }
    switch (message.type) {
      case 'ready':
        clearTimeout(readyTimer);
        markReady(message.tools);
        return;
      case 'result':
        pending.get(message.id)?.settle({ kind: 'result', result: message.result });
        return;
      case 'progress':
        pending.get(message.id)?.onProgress?.({ progress: message.progress, total: message.total, message: message.message });
        return;
      case 'pong':
        pongWaiters.get(message.seq)?.();
        return;
      default:
        options.onFeedback(message);
    }
  };
  const undoMessage = child.onMessage(onMessage);
  const exitListeners = new Set<(exit: WorkerExit & { reason?: string }) => void>();
  const undoExit = child.onExit((raw) => {
    exit = { ...raw, reason: killReason };
    clearTimeout(readyTimer);
    undoMessage();
    undoExit();
    failReady(new Error(describeExit(exit)));
    for (const call of [...pending.values()]) call.settle({ kind: 'crashed', exit });
    for (const listener of exitListeners) listener(exit);
  });

  const connection: WorkerConnection = {
    pid: child.pid,
    generation: options.generation,
    ready,
    call(request) {
      if (exit) return Promise.resolve({ kind: 'crashed', exit });
      const id = nextId++;
      return new Promise<CallOutcome>((resolve) => {
        const onAbort = () => {
          child.send({ type: 'cancel', id, reason: String(request.signal.reason ?? 'cancelled by the client') });
          settle({ kind: 'cancelled' });
        };
        const settle = (outcome: CallOutcome) => {
          if (!pending.delete(id)) return;
          request.signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
        pending.set(id, { settle, onProgress: request.onProgress });
        if (request.signal.aborted) return onAbort();
        request.signal.addEventListener('abort', onAbort, { once: true });
        child.send({ type: 'call', id, name: request.name, arguments: request.arguments });
      });
    },
    ping(timeoutMs) {
      if (exit) return Promise.resolve(false);
      const seq = nextSeq++;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (answered: boolean) => {
          clearTimeout(timer);
          pongWaiters.delete(seq);
          resolve(answered);
        };
        pongWaiters.set(seq, () => done(true));
        child.send({ type: 'ping', seq });
      });
    },
    inFlight: () => pending.size,
    answerFeedback(questionId, answer) {
      child.send({ type: 'feedback-answer', questionId, answer });
    },
    kill(reason) {
      killReason ??= reason;
      child.kill();
    },
    onExit(listener) {
      if (exit) {
        const done = exit;
        queueMicrotask(() => listener(done));
        return () => {};
      }
      exitListeners.add(listener);
      return () => exitListeners.delete(listener);
    },
  };
  return connection;
}

export function describeExit(exit: WorkerExit & { reason?: string }): string {
  if (exit.reason) return exit.reason;
  if (exit.error) return `could not start: ${exit.error}`;
  return childEndText({ exitCode: exit.code, signal: exit.signal }).replace(/^was /, '');
}
