/**
 * Tool calls that arrive while no Worker is ready (starting, restarting) wait here, in arrival
 * order, until one is ready, their deadline passes (`queue_timeout_ms` after arrival), their
 * client cancels them, or the Keeper gives up (fatal) or shuts down. Every waiter settles
 * exactly once with one of those outcomes; the caller turns a non-`ready` outcome into the
 * matching answer (or, for `aborted`, into no answer at all). Disposing the queue (the Keeper
 * shuts down) settles every waiter as `stopped`, and any later one at once.
 */
import type { Disposable } from '../../lifetime/disposable-store.js';

type QueueOutcome = 'ready' | 'timeout' | 'aborted' | 'fatal' | 'stopped';

export interface RequestQueue extends Disposable {
  /** Waits until released or `deadline` (ms since the epoch) passes or `signal` aborts. */
  wait(signal: AbortSignal, deadline: number): Promise<QueueOutcome>;
  /** Lets every waiter go, oldest first (a Worker is ready). */
  releaseAll(): void;
  /** Settles every waiter as `fatal` (the Keeper gave up). */
  rejectAll(outcome: 'fatal'): void;
  size(): number;
}

export function createRequestQueue(clock: { now(): number } = Date): RequestQueue {
  const waiters = new Set<(outcome: QueueOutcome) => void>();
  let stopped = false;
  const settleAll = (outcome: QueueOutcome) => {
    for (const settle of [...waiters]) settle(outcome);
  };
  return {
    wait(signal, deadline) {
      return new Promise<QueueOutcome>((resolve) => {
        if (signal.aborted) return resolve('aborted');
        if (stopped) return resolve('stopped');
        const timer = setTimeout(() => settle('timeout'), Math.max(0, deadline - clock.now()));
        const onAbort = () => settle('aborted');
        const settle = (outcome: QueueOutcome) => {
          if (!waiters.delete(settle)) return;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
        waiters.add(settle);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    releaseAll: () => settleAll('ready'),
    rejectAll: (outcome) => settleAll(outcome),
    dispose() {
      stopped = true;
      settleAll('stopped');
    },
    size: () => waiters.size,
  };
}
