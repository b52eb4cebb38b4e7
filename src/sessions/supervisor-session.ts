/**
 * A supervised session with its stream: what SessionCore holds (config, pipeline, logger, guards,
 * cost, the agent's environment, the reporters of its events and frames) plus the session id as
 * an RxJS subject, which the input log, the running-session record, the observer and the
 * transcript tail follow. Built once at the entry (interactive, headless, kanban), torn down in
 * `close()`.
 */
import { ReplaySubject } from '../rx.js';
import { SessionCore, type SessionOptions } from './session-core.js';

export type SupervisorSessionOptions = SessionOptions;

export class SupervisorSession extends SessionCore {
  /** The session id once known (replayed to late subscribers such as the observer). */
  readonly sessionId$ = new ReplaySubject<string>(1);

  override setSessionId(id: string): void {
    if (this.sessionId === id) return;
    super.setSessionId(id);
    this.sessionId$.next(id);
  }

  override async close(): Promise<void> {
    await super.close();
    this.sessionId$.complete();
  }
}
