/**
 * Connections refused for a wrong token, logged without letting whoever sends them fill the disk:
 * the first refusal is a line at once, then at most one line per interval, each saying how many
 * were refused since the last line; the count still untold is logged when the server closes.
 */
import type { ObserverLogger } from './observer-logger.js';

export const REFUSAL_LOG_INTERVAL_MS = 60_000;

export interface RefusalLog {
  refused(remote: string | undefined): void;
  /** Logs the refusals not yet told (at close). */
  flush(): void;
}

export function refusalLog(logger: ObserverLogger, options: { intervalMs?: number; now?: () => number } = {}): RefusalLog {
  const intervalMs = options.intervalMs ?? REFUSAL_LOG_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let lastLine = -Infinity;
  let untold = 0;
  const message = 'observer: refused a connection without the right token';
  return {
    refused(remote) {
      const at = now();
      if (at - lastLine < intervalMs) return void untold++;
      logger.warn(message, { remote, ...(untold > 0 ? { more_refused_since_last_line: untold } : {}) });
      lastLine = at;
      untold = 0;
    },
    flush() {
      if (untold > 0) logger.warn(`observer: refused ${untold} more connections without the right token`, { since_last_line_ms: now() - lastLine });
      untold = 0;
    },
  };
}
