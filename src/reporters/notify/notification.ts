/**
 * What a run left alone tells a person, and when: the `notify` reporter's rules, from the run's
 * events to at most one notification each. Four happenings (docs/configuration.md, "notify"):
 *
 * - `end`: the work is over, in one word from the verdict (`verificationOf`, the word every report
 *   uses: verified, focused, unverified, failed), with the evidence and the cost. Interactive and
 *   the standalone hook: at the confirmed completion (the agent waits there for its user); headless
 *   and kanban: at the run's end, with its exit code.
 * - `stuck`: the loop let the agent stop without the work done: no progress, or denied tools.
 * - `waiting`: the model refused a turn or a review on a limit; until when ccc waits. Once per
 *   series of waits (each retry of one refusal is not news), again after a verdict got through.
 * - `cap`: the cost cap or the iteration limit; said at the wind-down, when the agent is given its
 *   last turn, not again when that turn ends.
 *
 * One ending is told once: after a `stuck` or `cap`, the run's end says nothing more. Everything
 * shown comes from the events (model text included) and is made inert by the sinks
 * (notification-text.ts), which also bound its length.
 */
import path from 'node:path';
import { opinionText } from '../../checkers/agreement.js';
import type { Opinion } from '../../checkers/types.js';
import { verificationDetails, verificationOf, type Verification } from '../../checkers/verification.js';
import { NO_USAGE } from '../../claude/usage.js';
import { spendText } from '../../loop/spend-line.js';
import type { StopReason, SupervisorEvent } from '../../loop/events.js';
import type { NOTIFY_EVENTS } from '../../config/schema.js';
import { reviewSummary } from '../../loop/review-summary.js';

export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** The word an `end` says: the verdict's, or `failed` for every ending that is not a confirmed completion. */
type Outcome = Verification;

export interface Notification {
  event: NotifyEvent;
  /** `end` only. */
  outcome?: Outcome;
  /** One line: what happened, and where. */
  title: string;
  /** A few lines: the task, the evidence or the reason, the cost, the exit code or the time. */
  lines: string[];
  /** How loudly: `high` for what needs a person (stuck, failed, a cap), `low` for a wait. */
  priority: 'low' | 'normal' | 'high';
  /** The project's directory name, and its path. */
  project: string;
  cwd: string;
  task?: string;
  reason?: StopReason;
  /** The evidence text (`verified by: npm test (12 tests)`); `end` only. */
  evidence?: string;
  /** The reviewer whose verdict this tells (`claude`, `codex`), when a review gave one. */
  reviewer?: string;
  /** Each reviewer's own verdict, when the reviewers of the last round did not agree: who said what. */
  opinions?: Pick<Opinion, 'checker' | 'completed' | 'verification'>[];
  exit_code?: number;
  spent_usd?: number;
  cap_usd?: number;
  /** `waiting`: when the next try is (ISO 8601). */
  until?: string;
  session_id?: string;
  at: string;
}

export type RunMode = 'headless' | 'interactive' | 'kanban' | 'hook';

export interface NotifyContext {
  mode: RunMode;
  cwd: string;
  /** `supervisor.wind_down`: a standalone hook's stop that ends a wind-down turn was told at the wind-down, by an earlier hook. */
  windDown: boolean;
  /** `supervisor.limit_wait_minutes`: how long a wait may last in all, said with the first one. */
  limitWaitMinutes: number;
  now?: () => Date;
}

const STUCK: ReadonlySet<StopReason> = new Set(['no-progress', 'permission-denied']);
const CAPS: ReadonlySet<StopReason> = new Set(['limit', 'cost-cap']);

/** Titles of the `end` outcomes, keyed by the word: a new word in verification.ts must be given one here. */
const OUTCOME_TITLES: Record<Outcome, string> = {
  verified: 'done, verified',
  focused: 'done, verified by a focused run only',
  'tests-changed': 'done, verified by tests the agent changed',
  unverified: "done, unverified (the reviewer's word only)",
  failed: 'failed',
};

type Verdict = Extract<SupervisorEvent, { kind: 'verdict' }>;

export interface NotificationRules {
  onEvent(event: SupervisorEvent): Notification | undefined;
  /** The run is over; what its end has not told yet (a kanban board's end, a run ended by an error thrown past its `end`). */
  onClose(end: { exitCode?: number; sessionId?: string }): Notification | undefined;
}

export function notificationRules(context: NotifyContext): NotificationRules {
  const project = path.basename(context.cwd) || context.cwd;
  const now = context.now ?? (() => new Date());
  let task: string | undefined;
  let verdict: Verdict | undefined;
  let lastError: string | undefined;
  /** An `end`, `stuck` or `cap` was told since the last verdict: the ending is told. */
  let told = false;
  let ended = false;
  let sessionId: string | undefined;
  /** Why a run that ends on a failed review or a signal ended, told at its end. */
  let ending: { reason: StopReason; why: string } | undefined;
  const waiting = new Set<string>();

  const base = (event: NotifyEvent, title: string, lines: string[], priority: Notification['priority']): Notification => ({
    event,
    title: `ccc: ${title} (${project})`,
    lines: [...(task ? [`Task: ${task}`] : []), ...lines],
    priority,
    project,
    cwd: context.cwd,
    ...(task ? { task } : {}),
    ...(sessionId ? { session_id: sessionId } : {}),
    ...(verdict ? { reviewer: verdict.checker } : {}),
    ...(verdict?.opinions
      ? { opinions: verdict.opinions.map(({ checker, completed, verification }) => ({ checker, completed, ...(verification ? { verification } : {}) })) }
      : {}),
    ...(verdict?.spent_usd === undefined ? {} : { spent_usd: verdict.spent_usd }),
    ...(verdict?.cap_usd === undefined ? {} : { cap_usd: verdict.cap_usd }),
    at: now().toISOString(),
  });

  const spentLine = (): string[] => {
    if (verdict?.spent_usd === undefined) return [];
    return [`Cost: ${spendText({ ...verdict, spent_usd: verdict.spent_usd, task_spent_usd: verdict.task_spent_usd ?? verdict.spent_usd })}`];
  };

  const tell = (notification: Notification): Notification => {
    if (notification.event !== 'waiting') told = true;
    return notification;
  };

  /** The work's end in one word; `exitCode` and the reviews' total when the run's end says them. */
  const endOf = (outcome: Outcome, why: string[], extra: { exitCode?: number; reviews?: string; reason?: StopReason } = {}): Notification => {
    const evidence = verdict ? verificationDetails(verdict.completed, verdict.evidence) : '';
    const lines = [
      ...(evidence ? [`Evidence: ${evidence}`] : []),
      // Complete under `supervisor.agreement: one` with a reviewer that said no: the disagreement, and who said what.
      ...(verdict?.completed && verdict.opinions ? [verdict.feedback.trim().split(/\r?\n/)[0] ?? '', ...saidLines(verdict)] : []),
      ...why,
      ...spentLine(),
      ...(extra.reviews ? [`Reviews: ${extra.reviews}`] : []),
      ...(extra.exitCode === undefined ? [] : [`Exit code: ${extra.exitCode}`]),
    ];
    return tell({
      ...base('end', OUTCOME_TITLES[outcome], lines, outcome === 'verified' ? 'normal' : 'high'),
      outcome,
      ...(evidence ? { evidence } : {}),
      ...(extra.reason ? { reason: extra.reason } : {}),
      ...(extra.exitCode === undefined ? {} : { exit_code: extra.exitCode }),
    });
  };

  const verdictOutcome = (v: Verdict): Outcome => v.verification ?? verificationOf(v.completed, v.evidence);

  /** The last review's evidence and the first line of its feedback, when it found the work incomplete. */
  const feedbackLine = (v: Verdict | undefined): string[] => {
    if (!v || v.completed) return [];
    const first = v.feedback.trim().split(/\r?\n/)[0];
    const evidence = verificationDetails(v.completed, v.evidence);
    return [...(evidence ? [`Last review: ${evidence}`] : []), ...(first ? [`Last feedback: ${first}`] : []), ...saidLines(v)];
  };

  /** The run's own end (headless, kanban): its exit code says how it went; a confirmed completion says its word. */
  const runEnd = (exitCode: number | undefined, reviews?: string): Notification | undefined => {
    if (told) return undefined;
    if (exitCode === 0 && verdict?.completed) return endOf(verdictOutcome(verdict), [], { exitCode, ...(reviews ? { reviews } : {}) });
    const why = ending
      ? ending.why
      : exitCode === 0
        ? 'the run ended without a confirmed completion'
        : lastError
          ? `the run ended: ${lastError}`
          : `the run ended${exitCode === undefined ? ' by an error' : ''}`;
    return endOf('failed', [`Why: ${why}`, ...feedbackLine(verdict)], {
      ...(exitCode === undefined ? {} : { exitCode }),
      ...(reviews ? { reviews } : {}),
      ...(ending ? { reason: ending.reason } : {}),
    });
  };

  return {
    onEvent(e) {
      switch (e.kind) {
        case 'start':
          task = e.task.trim() || task;
          return undefined;
        case 'iteration':
          if (e.task) task = e.task;
          return undefined;
        case 'error':
          lastError = e.message;
          return undefined;
        case 'verdict':
          verdict = e;
          if (e.task) task = e.task;
          told = false;
          waiting.clear();
          // The agent now waits for its user (interactive) or ends its turn (the hook's session): the work's end, told now.
          if (e.completed && (context.mode === 'interactive' || context.mode === 'hook')) return endOf(verdictOutcome(e), []);
          return undefined;
        case 'waiting': {
          if (waiting.has(e.who)) return undefined;
          waiting.add(e.who);
          const until = new Date(e.until);
          const latest = new Date(Date.parse(e.at) + context.limitWaitMinutes * 60_000);
          const lines = [
            `Why: ${e.message}`,
            `Next try: ${clock(until)} (${e.until}), then again on a doubling schedule until ${clock(latest)} at the latest (supervisor.limit_wait_minutes)`,
          ];
          return tell({ ...base('waiting', `waiting on the model's limit until ${clock(until)}`, lines, 'low'), until: e.until });
        }
        case 'wait-over':
          if (e.outcome === 'gave-up') waiting.delete(e.who);
          return undefined;
        case 'wind-down':
          if (!CAPS.has(e.reason) || told) return undefined;
          return tell({
            ...base(
              'cap',
              capTitle(e.reason),
              [`Why: ${e.message}`, 'The agent has one last turn, not reviewed, to write down where the work stands.', ...spentLine()],
              'high',
            ),
            reason: e.reason,
          });
        case 'stopped':
          return stopped(e.reason, e.message);
        case 'end': {
          ended = true;
          if (context.mode === 'hook') return undefined; // one stop per process: its decision was told above, or needs no telling
          const reviews = reviewSummary(e.reviews ?? 0, e.review_usage ?? NO_USAGE);
          if (context.mode === 'interactive') {
            // The user ended claude (exit 0) or it died: only the latter is news to someone away.
            if (told || e.exit_code === 0 || e.exit_code === null) return undefined;
            return endOf('failed', [`Why: claude exited with code ${e.exit_code} before the work was confirmed`], {
              exitCode: e.exit_code,
              ...(reviews ? { reviews } : {}),
            });
          }
          return runEnd(e.exit_code ?? undefined, reviews);
        }
        default:
          return undefined;
      }
    },
    onClose(end) {
      sessionId = end.sessionId ?? sessionId;
      if (ended && context.mode !== 'kanban') return undefined;
      if (context.mode === 'interactive' || context.mode === 'hook') return undefined;
      return runEnd(end.exitCode);
    },
  };

  function stopped(reason: StopReason, message: string): Notification | undefined {
    if (STUCK.has(reason)) {
      return tell({
        ...base(
          'stuck',
          reason === 'no-progress' ? 'stuck, no progress' : 'stuck, tools denied',
          [`Why: ${message}`, ...feedbackLine(verdict), ...spentLine()],
          'high',
        ),
        reason,
      });
    }
    if (CAPS.has(reason)) {
      // Its wind-down was told: in this process, or (a standalone hook, one stop per process) by the hook before it.
      if (told || (context.mode === 'hook' && context.windDown && !verdict)) return undefined;
      return tell({ ...base('cap', capTitle(reason), [`Why: ${message}`, ...feedbackLine(verdict), ...spentLine()], 'high'), reason });
    }
    if (reason === 'checker-failed' || reason === 'interrupted') {
      const why = `${reason === 'checker-failed' ? 'the review failed' : 'interrupted'}: ${message}`;
      // A run that ends here says it at its end, with the exit code; a session that goes on, now.
      if (context.mode === 'headless' || context.mode === 'kanban') return void (ending = { reason, why });
      if (told) return undefined;
      return endOf('failed', [`Why: ${why}`], { reason });
    }
    return undefined;
  }
}

/**
 * Who said what, one line a reviewer, when the round's reviewers did not agree (the feedback's
 * first line says they disagree; these say how): a person away reads both sides, not the last.
 */
function saidLines(v: Verdict): string[] {
  return (v.opinions ?? []).map((o) => `${o.checker}: ${opinionText(o)}`);
}

function capTitle(reason: StopReason): string {
  return reason === 'cost-cap' ? 'reached its cost cap' : 'reached its iteration limit';
}

/** `14:05` in the machine's time zone: the person reading it is usually where the machine is. */
function clock(at: Date): string {
  return at.toTimeString().slice(0, 5);
}
