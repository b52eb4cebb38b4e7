/**
 * Periodic IPC health check of one Worker (docs/design/mcp.md, "Two processes").
 *
 * Every `intervalMs` it pings; a pong within `timeoutMs` marks the Worker healthy and clears the
 * miss count. A missed ping while the Worker has tool calls in flight is not counted: a Worker busy
 * in a long (even CPU-bound) call is busy, not hung, and killing it would lose the call. A missed
 * ping while idle is counted; `failures` misses in a row call `onHung` once. A Worker stuck for
 * good inside a call is therefore restarted once its caller gives up (cancels): it is then idle
 * and its misses count.
 *
 * Lifecycle: created when the Worker says `ready`, disposed when it exits or is replaced.
 */
import { timeout, type Disposable } from '../../lifetime/disposable-store.js';
import { MutableDisposable } from '../../lifetime/mutable-disposable.js';
import type { Logger } from '../../log/logger.js';

type HealthState = 'healthy' | 'unhealthy' | 'busy';

export interface HealthMonitorOptions {
  intervalMs: number;
  timeoutMs: number;
  failures: number;
  /** Resolves true when the Worker answered within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  isBusy(): boolean;
  onState(state: HealthState): void;
  onHung(misses: number): void;
  logger: Logger;
}

/** Checks one Worker from construction until disposed; a hung Worker ends the checks by itself. */
export class HealthMonitor implements Disposable {
  readonly #options: HealthMonitorOptions;
  /** The next check's timer; disposing the monitor clears it and drops a ping still out. */
  readonly #next = new MutableDisposable();
  #misses = 0;

  constructor(options: HealthMonitorOptions) {
    this.#options = options;
    this.#schedule();
  }

  dispose(): void {
    this.#next.dispose();
  }

  #schedule(): void {
    this.#next.value = timeout(() => void this.#check(), this.#options.intervalMs);
  }

  async #check(): Promise<void> {
    const options = this.#options;
    const busyAtStart = options.isBusy();
    const answered = await options.ping(options.timeoutMs);
    if (this.#next.isDisposed) return;
    if (answered) {
      this.#misses = 0;
      options.onState('healthy');
    } else if (busyAtStart || options.isBusy()) {
      this.#misses = 0;
      options.logger.debug('health check unanswered while a tool call runs; the worker is busy, not hung');
      options.onState('busy');
    } else {
      this.#misses += 1;
      options.logger.warn(`health check missed (${this.#misses}/${options.failures})`, { timeout_ms: options.timeoutMs });
      options.onState('unhealthy');
      if (this.#misses >= options.failures) {
        this.dispose();
        options.onHung(this.#misses);
        return;
      }
    }
    this.#schedule();
  }
}
