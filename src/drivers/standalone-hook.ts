/**
 * The Stop hook deciding on its own, in a Claude Code session that ccc did not start (installed
 * with `ccc hook install`): the hook's driver of `supervise` (supervise.ts), one stop per process,
 * with the same config, pipeline and rules as a supervised run. No RxJS: `SessionCore` only.
 */
import { buildPipeline } from '../checkers/registry.js';
import { shownVerdictOf } from '../checkers/verdict-text.js';
import { isCccError, type CccError } from '../errors.js';
import { sessionSupervisedError, type SessionClaimRecord } from '../state/session-claims.js';
import { loadConfig } from '../config/load.js';
import { describeOrigin } from '../config/validate.js';
import { readSessionState } from '../state/session-state.js';
import { moduleCacheDir } from '../state/paths.js';
import type { StopDecision } from '../loop/review-stop.js';
import { limitWaits, type LimitWaits } from '../loop/limit-wait.js';
import { failureText } from '../loop/run-ending.js';
import { SessionCore } from '../sessions/session-core.js';
import { checkerTimeoutsSeconds, hookClaimWaitSeconds } from '../loop/hook-timeout.js';
import { hookOutput } from '../loop/hook-output.js';
import type { StopEvent } from '../stop/stop-event.js';
import { modelFailureSentence, stopFailureOf } from '../claude/api-error.js';
import { worthWaiting } from '../loop/limit-wait.js';
import { SessionLogger } from '../sessions/session-logger.js';
import { hookAgentCost } from '../stop/hook-agent-cost.js';
import { SessionStateReadings } from '../loop/transcript-readings.js';
import type { AgentDriver, Answered, DriverEnding, DriverStop } from '../loop/driver.js';
import { runSupervised } from '../loop/run-supervised.js';
import { Run, type ClaimPolicy } from '../loop/run.js';
import { hookOwner, processKey } from '../process/process-ancestry.js';
import { fileRunTasks } from '../state/run-task.js';
import { findExecutable } from '../process/resolve-command.js';
import { supportOf } from '../claude/claude-check.js';
import { unsupportedClaudeText } from '../claude/claude-support.js';
import { inertLine } from '../pty/inert-text.js';

/** The hook's answer for Claude Code (stdout), and, when the stop is allowed for any reason but a verdict, why (one stderr line). */
export interface StandaloneAnswer {
  output: string;
  allowedBecause?: string;
}

/** Allowed stops that say nothing: a confirmed completion, supervision off, background tasks still running, the reviewer's own stop, a /goal at work. */
const QUIET_ALLOWS: ReadonlySet<string> = new Set(['completed', 'disabled', 'background-tasks', 'recursion', 'goal']);

export async function decideStandalone(stop: StopEvent, env: NodeJS.ProcessEnv): Promise<StandaloneAnswer> {
  const resolved = await loadConfig({ cwd: stop.cwd, env });
  const unsupported = await unsupportedClaude(resolved.config.claude.command, stop.cwd, env, resolved.configDir);
  if (unsupported) return unsupported;
  const pipeline = await buildPipeline({
    config: resolved.config,
    sources: resolved.sources,
    cwd: stop.cwd,
    moduleCacheDir: () => moduleCacheDir(resolved.configDir),
    checkersFrom: describeOrigin('supervisor.checkers', resolved),
  });
  // The run is the claude process this hook belongs to: its task's count outlives a session id claude changes mid-task.
  const owner = hookOwner();
  const runTasks = owner ? fileRunTasks(resolved.configDir, processKey(owner)) : undefined;
  const task = await runTasks?.read();
  const renamed = stop.stopHookActive && task && task.sessionId !== stop.sessionId ? task : undefined;
  // Each stop is its own process: the reviews of the session's earlier stops (and of the task's earlier sessions) count toward the caps too.
  const priorCost = Math.max((await readSessionState(resolved.configDir, stop.sessionId))?.review_cost_usd ?? 0, renamed?.reviewCostUsd ?? 0);
  const agentCost = hookAgentCost(resolved.configDir, stop.sessionId);
  // Each stop is its own process: the transcript is read on from where the last stop's reading stopped, kept in the session state.
  const transcripts = (logger: SessionLogger) => new SessionStateReadings(resolved.configDir, logger, resolved.config.supervisor.max_iterations);
  const session = new SessionCore({
    resolved,
    pipeline,
    cwd: stop.cwd,
    env,
    claudeArgs: resolved.config.claude.args,
    priorCost,
    agentCost,
    transcripts,
    ...(runTasks ? { runTasks } : {}),
  });
  session.setSessionId(stop.sessionId);
  // One supervisor per session: a session a live ccc supervises is that ccc's to review, not this
  // hook's. Another hook's review of it (the session open in two terminals) is waited for, then this
  // stop is reviewed in turn; for as long as this hook's own timeout leaves room for a review after it.
  const waitSeconds = hookClaimWaitSeconds(checkerTimeoutsSeconds(resolved.config.supervisor), resolved.config.supervisor.limit_wait_minutes);
  const run = new Run({
    mode: 'hook',
    configDir: resolved.configDir,
    cwd: stop.cwd,
    sessionId: stop.sessionId,
    claimPolicy: waitForHooks(waitSeconds),
    failedEnding: hookFailedEnding,
    // The hook's answer is its output, never its exit code.
    exitCode: 0,
    warn: (message) => session.logger.warn(message),
  });
  run.hold(session);
  return run.using(async () => {
    session.logger.info('supervisor-hook started', { session_id: stop.sessionId, stop_hook_active: stop.stopHookActive });
    // The reporters the config names (a notification when the agent is done, stuck, waiting or capped);
    // loaded only when named: the hook's path loads nothing it does not need. A notification still
    // under way is waited for FLUSH_MS at most when the run closes them (src/reporters/notify/webhook-delivery.ts).
    if (resolved.config.reporters.length > 0 || resolved.config.notify.webhook_url !== undefined) {
      const { reportersFor } = await import('../reporters/reporters.js');
      run.report(await reportersFor({ mode: 'hook', own: session.ownReporters() }));
    }
    // A review refused on the model's limit is waited out inside this process (its hook's
    // `timeout` covers the waiting budget); claude killing the hook is the only other end of it.
    const driver = new HookDriver(
      stop,
      limitWaits({ retrySeconds: resolved.config.supervisor.limit_retry_seconds, maxMinutes: resolved.config.supervisor.limit_wait_minutes }),
    );
    const { decision } = await runSupervised(run, driver, session);
    // The verdict is the user's to see in the TUI (`Stop says: …`); `claude -p` prints no systemMessage in text or json output.
    const shown = decision && shownVerdictOf(decision.action === 'wind-down' ? undefined : decision.verdict);
    const output = decision ? hookOutput(decision, { showVerdict: true, ...(shown ? { shown } : {}) }) : '';
    return decision?.action === 'allow' && !QUIET_ALLOWS.has(decision.reason) ? { output, allowedBecause: decision.message } : { output };
  });
}

/**
 * How a hook's run that failed ends: the hook prints the same on stderr and lets the stop through
 * (supervisor-hook.ts), exit 0; a stop another supervisor holds is not reviewed, a warning.
 */
function hookFailedEnding(error: unknown): DriverEnding {
  if (isCccError(error) && error.code === 'SESSION_SUPERVISED') return { how: `stop not reviewed: ${error.message}`, exitCode: 0, level: 'warn' };
  return { how: `${failureText(error)}; stop allowed`, exitCode: 0, level: 'error' };
}

/**
 * A claude ccc cannot supervise (too old, or a `--version` that names none) is not reviewed: the
 * hook must never hold up the user's claude, so the stop goes through, and the user sees why in the
 * TUI (`Stop says: …`) and on stderr. A claude the hook cannot find is left to the checkers (a
 * rule-only pipeline needs none).
 */
async function unsupportedClaude(command: string, cwd: string, env: NodeJS.ProcessEnv, configDir: string): Promise<StandaloneAnswer | undefined> {
  const file = findExecutable(command, env, cwd);
  if (file === undefined) return undefined;
  const reason = unsupportedClaudeText(await supportOf({ command, file, cwd, env, configDir }), file);
  if (reason === undefined) return undefined;
  const because = `stop not reviewed: ${reason}`;
  return { output: JSON.stringify({ systemMessage: `ccc: ${inertLine(because)}` }), allowedBecause: because };
}

/** One stop, claimed already (claimWhenHooksAreDone); its decision is the hook's answer, and the run's end. */
class HookDriver implements AgentDriver {
  readonly mode = 'hook';
  /** claude continues the session itself after a block: the stop past the limit is reviewStop's to allow. */
  readonly blockPaysTurn = false;
  readonly windsDown = true;
  private readonly started = Date.now();
  private action: StopDecision['action'] | undefined;

  constructor(
    private readonly stop: StopEvent,
    readonly waits: LimitWaits,
  ) {}

  async *stops(): AsyncIterable<DriverStop> {
    yield { event: this.stop };
  }

  async notSupervised(_stop: DriverStop, refused: CccError<'SESSION_SUPERVISED'>): Promise<never> {
    throw refused;
  }

  async answer(_stop: DriverStop, decision: StopDecision): Promise<Answered> {
    this.action = decision.action;
    return { end: decision };
  }

  ended(): undefined {
    return undefined;
  }

  endingFields(): Record<string, unknown> {
    return { decision: this.action, duration: `${Date.now() - this.started}ms` };
  }

  /** The hook's answer is its output, never its exit code: a stop's decision exits 0. */
  exitCodeOf(): number {
    return 0;
  }

  readonly failedEnding = hookFailedEnding;
}

/** How often a hook looks again at a claim another hook's review holds. */
const HOOK_CLAIM_POLL_MS = 100;

/**
 * The hook's claim policy: a session a supervising ccc holds is refused at once; one another hook's
 * review holds is waited for, `waitSeconds` at most, then refused with a line that says so.
 */
function waitForHooks(waitSeconds: number): ClaimPolicy {
  return async (take, sessionId) => {
    const claimed = await claimWhenHooksAreDone(take, waitSeconds * 1000);
    if (claimed.waitedOut) return sessionSupervisedError(sessionId, claimed.waitedOut, hookStillReviewingMessage(sessionId, claimed.waitedOut, waitSeconds));
    return claimed.holder && sessionSupervisedError(sessionId, claimed.holder);
  };
}

/**
 * Claims the session, waiting while another hook reviews it, `waitMs` at most. `holder`: a
 * supervising ccc has it (not a hook: never waited for). `waitedOut`: another hook still held it at
 * the bound.
 */
export async function claimWhenHooksAreDone(
  claim: () => Promise<SessionClaimRecord | undefined>,
  waitMs: number,
  pollMs = HOOK_CLAIM_POLL_MS,
): Promise<{ holder?: SessionClaimRecord; waitedOut?: SessionClaimRecord }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = await claim();
    if (holder?.mode !== 'hook') return holder ? { holder } : {};
    if (Date.now() >= deadline) return { waitedOut: holder };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * The hook given a StopFailure (a user may wire `ccc supervisor-hook` to it too): the agent's turn
 * failed, so there is no work to review, and claude ignores this hook's answer, so no hook can
 * resume the turn, nor wait it out to any use (docs/design/stop-path.md, "The agent's limit and the
 * standalone hook"). What it can do is say so in the session's log; the returned line is the one
 * logged.
 */
export async function noteStopFailure(stop: StopEvent, env: NodeJS.ProcessEnv): Promise<string> {
  const failure = stopFailureOf(stop.raw);
  if (!failure) return '';
  const { config, configDir } = await loadConfig({ cwd: stop.cwd, env });
  const logger = new SessionLogger(configDir, config.supervisor.log_level, false);
  logger.bind(stop.sessionId);
  const resend = worthWaiting(failure.kind) ? 'resend your message once the limit has passed' : 'resend your message';
  const line = `${modelFailureSentence('agent', failure)}; not reviewed, and not resumed: a hook cannot resume a turn claude ended on an API error (${resend}, or run the session under \`ccc --supervisor\`, which waits it out)`;
  logger.warn(line, { session_id: stop.sessionId });
  return line;
}

function hookStillReviewingMessage(sessionId: string, holder: SessionClaimRecord, waitSeconds: number): string {
  return (
    `another ccc supervisor-hook (pid ${holder.pid}) has been reviewing session ${sessionId} for the ${waitSeconds}s this hook can wait ` +
    '(a review begun later would outlast its timeout); this stop is not reviewed, the next one is'
  );
}
