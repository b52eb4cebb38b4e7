/**
 * Observers coming and going, logged in aggregate: the first join and the first drop are lines at
 * once, after that at most one line per interval for each, counting what happened since the last
 * line; the counts still untold are logged when the server closes. Hundreds of observers
 * connecting and dropping cost a few lines a minute, not one per connection.
 */
import type { ObserverLogger } from './observer-logger.js';
import { REFUSAL_LOG_INTERVAL_MS } from './refusal-log.js';

export interface TrafficLog {
  joined(observers: number): void;
  left(observers: number): void;
  /** Closed by the session (fell behind, …); `reason` as the observer was told. */
  dropped(reason: string, observers: number): void;
  flush(observers: number): void;
}

export function trafficLog(logger: ObserverLogger, options: { intervalMs?: number; now?: () => number } = {}): TrafficLog {
  const intervalMs = options.intervalMs ?? REFUSAL_LOG_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const comings = { last: -Infinity, joined: 0, left: 0 };
  const drops = { last: -Infinity, untold: 0, reason: '' };
  const tellComings = (observers: number) => {
    if (comings.joined + comings.left === 0) return;
    logger.info(`observer: ${comings.joined} joined, ${comings.left} left since the last line`, { observers });
    comings.joined = comings.left = 0;
  };
  const tellDrops = (observers: number) => {
    if (drops.untold === 0) return;
    logger.warn(`observer: dropped ${drops.untold} more observers since the last line`, { last_reason: drops.reason, observers });
    drops.untold = 0;
  };
  return {
    joined(observers) {
      const at = now();
      if (comings.last === -Infinity) {
        comings.last = at;
        return void logger.info('observer: joined', { observers });
      }
      comings.joined++;
      if (at - comings.last >= intervalMs) {
        comings.last = at;
        tellComings(observers);
      }
    },
    left(observers) {
      comings.left++;
      const at = now();
      if (at - comings.last >= intervalMs) {
        comings.last = at;
        tellComings(observers);
      }
    },
    dropped(reason, observers) {
      const at = now();
      if (at - drops.last < intervalMs) {
        drops.untold++;
        drops.reason = reason;
        return;
      }
      tellDrops(observers);
      logger.warn('observer: dropped', { reason, observers });
      drops.last = at;
    },
    flush(observers) {
      tellComings(observers);
      tellDrops(observers);
    },
  };
}
