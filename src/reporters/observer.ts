/**
 * Observers (`--observe`, docs/design/observer.md) see the run's events and the agent's frames as they
 * happen: the hub fans each out to every observer without waiting for any of them.
 */
import type { ObserverServer } from '../observer/observer-server.js';
import type { Reporter } from './reporter.js';

export function observerReporter(server: Pick<ObserverServer, 'publishEvent' | 'publishFrame'>): Reporter {
  return {
    onEvent: (e) => server.publishEvent(e),
    onFrame: (frame) => server.publishFrame(frame),
  };
}
