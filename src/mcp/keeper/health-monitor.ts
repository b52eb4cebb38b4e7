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
 * Lifecycle: created when the Worker says `ready`, stopped when it exits or is replaced.
 */
import type { Logger } from '../../log/logger.js';

export type HealthState = 'healthy' | 'unhealthy' | 'busy';

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

export interface HealthMonitor {
  stop(): void;
}

export function startHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  let misses = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const check = async () => {
    const busyAtStart = options.isBusy();
    const answered = await options.ping(options.timeoutMs);
    if (stopped) return;
    if (answered) {
      misses = 0;
      options.onState('healthy');
    } else if (busyAtStart || options.isBusy()) {
      misses = 0;
      options.logger.debug('health check unanswered while a tool call runs; the worker is busy, not hung');
      options.onState('busy');
    } else {
      misses += 1;
      options.logger.warn(`health check missed (${misses}/${options.failures})`, { timeout_ms: options.timeoutMs });
      options.onState('unhealthy');
      if (misses >= options.failures) {
        stopped = true;
        options.onHung(misses);
        return;
      }
    }
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void check(), options.intervalMs);
  };

  schedule();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
