/**
 * One headless run, as the reports see it: what `--json` prints (the supervisor's events and
 * `{ kind: 'frame', frame }` lines), folded as it comes. A live run's reporters fold its typed
 * events (session-reports.ts); `ccc report` folds the lines of a file, each read by `loggedEvent`
 * (event-log.ts), the one place a line is checked. What is not there stays unknown; nothing is
 * made up.
 */
import type { Evidence } from '../../checkers/evidence.js';
import { lookOf } from '../../checkers/verdict-look.js';
import { verificationOf, type Verification } from '../../checkers/verification.js';
import type { ReviewKind } from '../../checkers/types.js';
import { addUsage, NO_USAGE, runCost, type Usage } from '../../claude/usage.js';
import type { StopReason } from '../../loop/events.js';
import { loggedEvent, type LoggedEvent } from './event-log.js';

/**
 * How the run ended: a stop reason of the loop that ends a run (every one but `goal`, which sends
 * the agent back to work), `error` (the agent failed), or `unfinished` (no end event).
 */
export type Outcome = Exclude<StopReason, 'goal'> | 'error' | 'unfinished';

type ReviewResult = 'complete' | 'not complete' | 'failed' | 'cancelled' | 'unfinished';

export interface ReviewRecord {
  /** The iteration number the loop gave the review. */
  n: number;
  /** The checker whose verdict it is (or the last one that ran, when none gave one). */
  checker: string;
  result: ReviewResult;
  /** The verdict's feedback, or why the review failed. */
  feedback: string;
  durationMs?: number;
  usage?: Usage;
  /** What a verdict comes to (verified, unverified, failed); absent for a review without a verdict. */
  verification?: Verification;
  /** The verification commands of the verdict's round, when the checkers reported any. */
  evidence?: Evidence[];
  /** The claude reviewer's kind of review: `forked`, `compacted` (the fork summarized by claude), `fresh`. */
  review?: ReviewKind;
  /** Each reviewer's own verdict, when the round's reviewers did not agree: who said what. */
  opinions?: ReviewerSaid[];
}

export interface ReviewerSaid {
  checker: string;
  completed: boolean;
}

export interface RunRecord {
  task?: string;
  outcome: Outcome;
  /** True only when the checker confirmed completion. */
  completed: boolean;
  /** `verified` or `unverified` when completed (as its last verdict), else `failed`. */
  verification: Verification;
  /** The exit code of the end event; undefined when the run has none. */
  exitCode?: number;
  /** What the loop or the agent said when it ended without completion. */
  message?: string;
  reviews: ReviewRecord[];
  reviewUsage: Usage;
  /** What the agent's own turns cost (the reviews are in `reviewUsage`). */
  agentCostUsd: number;
  /**
   * The spend against the caps as the last verdict carried it: the run's cap and the task's
   * (`supervisor.max_cost_usd`, `max_task_cost_usd`) and what the run and its task had spent then.
   */
  capUsd?: number;
  taskCapUsd?: number;
  spentUsd?: number;
  taskSpentUsd?: number;
  sessionId?: string;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
}

/** The record of a run from the lines of its event log, in order (`ccc report`). */
export function runRecord(lines: Iterable<unknown>): RunRecord {
  const fold = new RunFold();
  for (const line of lines) {
    const read = loggedEvent(line);
    if (read) fold.add(read);
  }
  return fold.record();
}

/** A run's record, folded one event at a time: a live event as it comes, or a line read back. */
export class RunFold {
  private readonly reviews: ReviewRecord[] = [];
  /** The review under way: its index in `reviews` and when it began. */
  private open: { at: number; startedAt?: number } | undefined;
  private task: string | undefined;
  private stopped: { reason: StopReason | undefined; message: string } | undefined;
  private agentError: string | undefined;
  private end: { exitCode: number | undefined; reviewUsage: Usage | undefined; at: string | undefined } | undefined;
  private agentCostUsd = 0;
  private caps: Pick<RunRecord, 'capUsd' | 'taskCapUsd' | 'spentUsd' | 'taskSpentUsd'> = {};
  private sessionId: string | undefined;
  private firstAt: string | undefined;
  private lastAt: string | undefined;
  private startAt: string | undefined;

  add(line: LoggedEvent): void {
    const at = line.at;
    if (at !== undefined && time(at) !== undefined) {
      this.firstAt ??= at;
      this.lastAt = at;
    }
    switch (line.kind) {
      case 'frame': {
        const f = line.frame;
        if (!f) break;
        if (f.session_id) this.sessionId = f.session_id;
        if (f.type === 'result') this.agentCostUsd += runCost({ ...f, type: f.type });
        break;
      }
      case 'start':
        this.task = line.task ?? this.task;
        this.startAt ??= at;
        break;
      case 'iteration': {
        this.closeOpen('unfinished', '', at);
        this.reviews.push({ n: line.n ?? this.reviews.length + 1, checker: '', result: 'unfinished', feedback: '' });
        this.open = { at: this.reviews.length - 1, startedAt: time(at) };
        break;
      }
      case 'checker':
        if (this.open && line.checker) this.reviews[this.open.at]!.checker = line.checker;
        break;
      case 'verdict': {
        if (!this.open) {
          this.reviews.push({ n: line.iteration ?? this.reviews.length + 1, checker: '', result: 'unfinished', feedback: '' });
          this.open = { at: this.reviews.length - 1 };
        }
        this.caps = definedOnly({ capUsd: line.cap_usd, taskCapUsd: line.task_cap_usd, spentUsd: line.spent_usd, taskSpentUsd: line.task_spent_usd });
        const { evidence, review, usage } = line;
        const opinions = line.opinions?.length ? line.opinions.map(({ checker, completed }) => ({ checker, completed })) : undefined;
        // Derived from the verdict and its evidence, never taken from the event: a log cannot claim a verification.
        this.closeOpen(line.completed === true ? 'complete' : 'not complete', line.feedback ?? '', at, {
          checker: line.checker ?? this.reviews[this.open.at]!.checker,
          verification: verificationOf(line.completed === true, evidence),
          ...(evidence ? { evidence } : {}),
          ...(review ? { review } : {}),
          ...(opinions ? { opinions } : {}),
          ...(usage ? { usage: addUsage(NO_USAGE, usage) } : {}),
        });
        break;
      }
      case 'error': {
        const message = line.message ?? '';
        if (this.open) this.closeOpen('failed', message, at, line.usage ? { usage: addUsage(NO_USAGE, line.usage) } : {});
        else this.agentError = message;
        break;
      }
      case 'stopped': {
        const message = line.message ?? '';
        if (this.open) this.closeOpen(line.reason === 'cancelled' ? 'cancelled' : 'failed', message, at);
        this.stopped = { reason: line.reason, message };
        break;
      }
      case 'end':
        this.end = { exitCode: line.exit_code ?? undefined, reviewUsage: line.review_usage && addUsage(NO_USAGE, line.review_usage), at };
        break;
      default:
        break;
    }
  }

  /** The record so far; a review still open is `unfinished`. Folding may go on after. */
  record(): RunRecord {
    const reviews = this.reviews.map((review) => ({ ...review }));
    if (this.open) closeReview(reviews[this.open.at]!, this.open.startedAt, 'unfinished', '', this.lastAt);
    const { end, stopped, agentError } = this;
    const reviewUsage = end?.reviewUsage ?? reviews.reduce((sum, r) => (r.usage ? addUsage(sum, r.usage) : sum), NO_USAGE);
    const exitCode = end?.exitCode;
    const last = reviews[reviews.length - 1];
    let outcome: Outcome;
    let message: string | undefined;
    if (!end) {
      outcome = 'unfinished';
      message = agentError ?? stopped?.message;
    } else if (stopped) {
      outcome = stopped.reason !== undefined && stopped.reason !== 'goal' ? stopped.reason : 'error';
      message = stopped.message;
    } else if (agentError !== undefined) {
      outcome = 'error';
      message = agentError;
    } else if (last?.result === 'complete' || exitCode === 0) {
      outcome = 'completed';
    } else {
      outcome = 'error';
    }
    const startedAt = this.startAt ?? this.firstAt;
    const endedAt = end?.at ?? this.lastAt;
    const started = time(startedAt);
    const ended = time(endedAt);
    const completed = outcome === 'completed' && last?.result === 'complete';
    return {
      ...(this.task !== undefined ? { task: this.task } : {}),
      outcome,
      completed,
      verification: completed ? (last.verification ?? 'unverified') : 'failed',
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(message !== undefined && message !== '' ? { message } : {}),
      reviews,
      reviewUsage,
      agentCostUsd: Math.round(this.agentCostUsd * 1e10) / 1e10,
      ...this.caps,
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      ...(startedAt ? { startedAt } : {}),
      ...(endedAt ? { endedAt } : {}),
      ...(started !== undefined && ended !== undefined ? { durationMs: Math.max(0, ended - started) } : {}),
    };
  }

  private closeOpen(result: ReviewResult, feedback: string, at: string | undefined, extra: Partial<ReviewRecord> = {}): void {
    if (!this.open) return;
    closeReview(this.reviews[this.open.at]!, this.open.startedAt, result, feedback, at, extra);
    this.open = undefined;
  }
}

function closeReview(
  review: ReviewRecord,
  startedAt: number | undefined,
  result: ReviewResult,
  feedback: string,
  at: string | undefined,
  extra: Partial<ReviewRecord> = {},
): void {
  const ended = time(at);
  Object.assign(review, { result, feedback, ...extra });
  if (startedAt !== undefined && ended !== undefined) review.durationMs = Math.max(0, ended - startedAt);
}

/** Agent and reviews together. */
export function totalCost(record: RunRecord): number {
  return Math.round((record.agentCostUsd + record.reviewUsage.cost_usd) * 1e10) / 1e10;
}

/** The outcome in a few words, for people. */
export function outcomeText(outcome: Outcome): string {
  switch (outcome) {
    case 'completed':
      return 'completed';
    case 'limit':
      return 'iteration limit reached';
    case 'no-progress':
      return 'stopped: no progress';
    case 'permission-denied':
      return "stopped: the agent's tools were denied";
    case 'cost-cap':
      return 'cost cap reached';
    case 'checker-failed':
      return 'checker failed';
    case 'disabled':
      return 'supervision off';
    case 'background-tasks':
      return 'background tasks still running';
    case 'recursion':
      return 'nested supervised run';
    case 'cancelled':
      return 'review cancelled';
    case 'interrupted':
      return 'interrupted';
    case 'error':
      return 'agent error';
    case 'unfinished':
      return 'unfinished (no end event)';
  }
}

/** The run's verification in a few words, for people: the outcome and what it means (checkers/verdict-look.ts). */
export function verificationText(verification: Verification): string {
  const { meaning } = lookOf(verification);
  return meaning ? `${verification}: ${meaning}` : `${verification}: complete, not verified (what it rests on says why)`;
}

/** The first non-empty line of a text, trimmed. */
export function firstLine(text: string): string {
  for (const line of text.split(/\r\n|\r|\n/)) if (line.trim()) return line.trim();
  return '';
}

/** `850 ms`, `12.3 s`, `4 min 05 s`, `1 h 02 min`. */
export function durationText(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

function definedOnly<T extends Record<string, number | undefined>>(fields: T): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, number>>;
}

function time(at: string | undefined): number | undefined {
  if (at === undefined) return undefined;
  const t = Date.parse(at);
  return Number.isNaN(t) ? undefined : t;
}
