/**
 * A supervised session with its streams: what SessionCore holds (config, pipeline, logger, guards,
 * cost, the agent's environment) plus the events, the frames and the session id as RxJS subjects,
 * for the title, the observer and the headless output. Built once at the entry (interactive or
 * headless), torn down in `close()`.
 */
import { ReplaySubject, Subject } from '../rx.js';
import type { Frame } from '../frames/frame.js';
import type { SupervisorEvent } from './events.js';
import { SessionCore, type SessionOptions } from './session-core.js';

export { STOP_HOOK_BLOCK_CAP_ENV, SUPERVISED_ENV } from './session-core.js';
export type SupervisorSessionOptions = SessionOptions;

export class SupervisorSession extends SessionCore {
  readonly events$ = new Subject<SupervisorEvent>();
  readonly frames$ = new Subject<Frame>();
  /** The session id once known (replayed to late subscribers such as the observer). */
  readonly sessionId$ = new ReplaySubject<string>(1);

  override setSessionId(id: string): void {
    if (this.sessionId === id) return;
    super.setSessionId(id);
    this.sessionId$.next(id);
  }

  override emit(event: SupervisorEvent): void {
    super.emit(event);
    this.events$.next(event);
  }

  override onFrame(frame: Frame): void {
    this.frames$.next(frame);
    super.onFrame(frame);
  }

  override async close(): Promise<void> {
    await super.close();
    this.events$.complete();
    this.frames$.complete();
    this.sessionId$.complete();
  }
}
