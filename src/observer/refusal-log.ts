/**
 * Refused connections (a wrong token, a foreign `Host` or `Origin`), logged without letting
 * whoever sends them fill the disk: the first refusal is a line at once, then at most one line per
 * interval, each saying how many were refused since the last line; the count still untold is
 * logged when the server closes. One log per reason, each with its own count.
 */
import { clip } from '../value-text.js';
import type { ObserverLogger } from './observer-logger.js';

export const REFUSAL_LOG_INTERVAL_MS = 60_000;

export interface RefusalLog {
  /** `value`: what was refused (the Host or Origin sent), clipped; the sender chose it. */
  refused(remote: string | undefined, value?: string): void;
  /** Logs the refusals not yet told (at close). */
  flush(): void;
}

export interface RefusalLogOptions {
  intervalMs?: number;
  now?: () => number;
  /** Completes "refused a connection …"; the token's by default. */
  reason?: string;
}

export function refusalLog(logger: ObserverLogger, options: RefusalLogOptions = {}): RefusalLog {
  const intervalMs = options.intervalMs ?? REFUSAL_LOG_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const reason = options.reason ?? 'without the right token';
  let lastLine = -Infinity;
  let untold = 0;
  return {
    refused(remote, value) {
      const at = now();
      if (at - lastLine < intervalMs) return void untold++;
      const sent = value === undefined ? {} : { sent: clip(value, 200) };
      logger.warn(`observer: refused a connection ${reason}`, { remote, ...sent, ...(untold > 0 ? { more_refused_since_last_line: untold } : {}) });
      lastLine = at;
      untold = 0;
    },
    flush() {
      if (untold > 0) logger.warn(`observer: refused ${untold} more connections ${reason}`, { since_last_line_ms: now() - lastLine });
      untold = 0;
    },
  };
}
