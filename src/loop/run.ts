/**
 * A supervised run, the same for every mode (headless, interactive, the standalone hook, a kanban
 * board): a `Run` owns what the run holds from its launch to its end, and `runSupervised`
 * (run-supervised.ts) is its loop with how it ended said once. Light: interactive makes its run
 * before claude's spawn, and the loop loads after it (docs/design/architecture.md, "Start-up").
 *
 * The Run owns, for every mode alike:
 * - the session claims (one supervisor per session): the session the mode knows at its launch is
 *   claimed before anything else starts, each stop's session as the loop meets it, all through
 *   `claim`, the one place a session is claimed; how a claim is taken is the mode's `ClaimPolicy`
 *   (the standalone hook waits while another hook reviews the session);
 * - the reporters (`report`), closed once at the end, on every path;
 * - the lifetime tree (`lifetime`): everything the mode acquires joins it as it is acquired and is
 *   released in reverse at the end, on every path, after the reporters have closed the session's
 *   last words and before the session's own close (whose line is the log's last) and the claims;
 * - the ending of a failed run: the log's last line names the error (the error goes on to the
 *   caller, whose entry prints it).
 */
import { event } from './events.js';
import { failureText, type RunMode } from './run-ending.js';
import type { SessionCore } from '../sessions/session-core.js';
import { SessionClaims, sessionSupervisedError, type SessionClaimRecord } from '../state/session-claims.js';
import { AsyncDisposableStore } from '../lifetime/async-disposable-store.js';
import { ExitCode, errorText, isCccError, type CccError } from '../errors.js';
import type { DriverEnding } from './driver.js';
import type { Reporter } from '../reporters/reporter.js';

/** The live ccc that holds a session, when this one may not supervise it; undefined when claimed. */
type Refusal = CccError<'SESSION_SUPERVISED'>;

/**
 * How a mode takes a session's claim: `take` tries once and answers the live holder, if any. The
 * default tries once and refuses with the holder's line; the standalone hook waits while another
 * hook reviews the session.
 */
export type ClaimPolicy = (take: () => Promise<SessionClaimRecord | undefined>, sessionId: string) => Promise<Refusal | undefined>;

const claimOnce: ClaimPolicy = async (take, sessionId) => {
  const holder = await take();
  return holder ? sessionSupervisedError(sessionId, holder) : undefined;
};

/** What a mode tells its run: data, not code of its own. */
export interface RunPlan {
  mode: RunMode;
  configDir: string;
  cwd: string;
  /**
   * The session the run is in from its launch (headless and interactive: the launch's own or the
   * one `--resume`/`--continue` names; the hook: its stop's), claimed before anything of the run
   * starts. Absent, each stop's session is claimed as the loop meets it (kanban).
   */
  sessionId?: string;
  claimPolicy?: ClaimPolicy;
  /** How the run ended when it failed (the log's last line); absent, the error's own words and exit code. */
  failedEnding?: (error: unknown) => DriverEnding;
  /** The exit code the reporters are closed with (`RunEnd`); the mode sets it once it is known (none: ended by an error). */
  exitCode?: number;
  /** Where a release that failed is said (the log; stderr before a session exists). */
  warn: (message: string) => void;
}

export class Run {
  readonly mode: RunMode;
  /** Everything the run holds, released newest first when it ends (src/lifetime/async-disposable-store.ts). */
  readonly lifetime: AsyncDisposableStore;
  /** What the reporters are told the run's exit code was (undefined: it ended by an error, or the mode has none to tell). */
  exitCode: number | undefined;
  readonly #plan: RunPlan;
  readonly #claims: SessionClaims;
  #session: SessionCore | undefined;
  #ended = false;

  constructor(plan: RunPlan) {
    this.#plan = plan;
    this.mode = plan.mode;
    this.exitCode = plan.exitCode;
    this.#claims = new SessionClaims(plan.configDir, plan.cwd);
    this.lifetime = new AsyncDisposableStore({ onError: (error) => plan.warn(`a run's resource failed to close: ${errorText(error)}`) });
    // The run's own, joined first and so released last: the claims, the session's close (its line is
    // the log's last), and before both the reporters' last words.
    this.lifetime.add(() => this.#claims.releaseAll());
    this.lifetime.add(() => this.#session?.close());
    this.lifetime.add(() => this.#session?.reporters.close({ exitCode: this.exitCode, sessionId: this.#session.sessionId }));
  }

  /**
   * Claims `sessionId` for this ccc: undefined when this ccc holds it (now or already), else the
   * refusal that names the live ccc that does. The one place a session is claimed.
   */
  claim(sessionId: string): Promise<Refusal | undefined> {
    return (this.#plan.claimPolicy ?? claimOnce)(() => this.#claims.claim(sessionId, this.mode), sessionId);
  }

  /** Gives up `sessionId` before the run ends (a kanban card whose reviews are over). */
  release(sessionId: string): void {
    this.#claims.release(sessionId);
  }

  /** The session the run is in, once it is open: the run closes it and its reporters, and says in its log how a failed run ended. */
  hold(session: SessionCore): void {
    this.#session = session;
  }

  /** The run's reporters: they hear the held session's events and frames until the run closes them. */
  report(reporters: readonly Reporter[]): void {
    if (!this.#session) throw new Error('a run reports the events of the session it holds: hold(session) first');
    for (const reporter of reporters) this.#session.reporters.add(reporter);
  }

  /**
   * How a run its mode ends itself ended (a kanban board: the workflow's outcome): the log's last
   * line, and the reporters' exit code. The first ending said stands.
   */
  endAs(ending: DriverEnding): void {
    if (this.#ended) return;
    this.#ended = true;
    this.exitCode = ending.exitCode;
    if (this.#session) endRun(this.mode, this.#session, ending, false);
  }

  /**
   * The run, from its launch to its end: the launch's session claimed (refused: a SESSION_SUPERVISED
   * error, before anything else starts), then `body`, then everything released, on every path. A
   * failed run's ending is said in the session's log before its close.
   */
  async using<T>(body: () => Promise<T>): Promise<T> {
    return this.lifetime.using(async () => {
      try {
        const { sessionId } = this.#plan;
        const refused = sessionId === undefined ? undefined : await this.claim(sessionId);
        if (refused) throw refused;
        return await body();
      } catch (error) {
        this.exitCode = undefined;
        if (this.#session) endRun(this.mode, this.#session, (this.#plan.failedEnding ?? failedEnding)(error), false);
        throw error;
      }
    });
  }
}

/** The error's own words and exit code (a CccError's code in the line's fields). */
export function failedEnding(error: unknown): DriverEnding {
  return {
    exitCode: isCccError(error) ? error.exitCode : ExitCode.error,
    how: failureText(error),
    level: 'error',
    fields: isCccError(error) ? { code: error.code } : {},
  };
}

/** The log's last line (the first ending said stands), and, when `said`, the `end` event of a run the loop ended. */
export function endRun(mode: RunMode, session: SessionCore, ending: DriverEnding, said: boolean, more: Record<string, unknown> = {}): void {
  const reviews = session.reviews;
  session.endedAs({
    mode,
    how: ending.how,
    exitCode: ending.exitCode,
    level: ending.level ?? 'info',
    fields: said ? { ...more, ...ending.fields, reviews } : { ...ending.fields },
  });
  if (said) session.emit(event({ kind: 'end', exit_code: ending.exitCode, reviews, review_usage: session.reviewUsage, ...session.endSpend() }));
}
