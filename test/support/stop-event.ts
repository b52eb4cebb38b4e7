import type { StopEvent } from '../../src/stop/stop-event.js';

/** A Stop hook's event for one session's transcript in `cwd`, as claude sends it on a first stop; `extra` overrides any field. */
export function stopEventAt(at: Pick<StopEvent, 'sessionId' | 'transcriptPath' | 'cwd'>, extra: Partial<StopEvent> = {}): StopEvent {
  return { ...at, stopHookActive: false, backgroundTasks: [], raw: {}, ...extra };
}
