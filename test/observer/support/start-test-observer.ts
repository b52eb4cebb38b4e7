/** Starts a real observer server with test defaults. */
import { startObserver } from '../../../src/observer/observer-server.js';
import type { ObserverOptions, ObserverServer } from '../../../src/observer/observer-server.js';

export const testHello = { session_id: 'test-session', cwd: '/work/project', command: ['claude'], cols: 80, rows: 24, started_at: '2026-11-22T01:02:03.000Z' };

export function startTestObserver(overrides: Partial<ObserverOptions> = {}): Promise<ObserverServer> {
  return startObserver({
    host: '127.0.0.1',
    port: 0,
    allowInput: false,
    scrollbackBytes: 1024 * 1024,
    maxObservers: 10,
    hello: testHello,
    ...overrides,
  });
}
