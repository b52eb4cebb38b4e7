/**
 * One headless run, as the reports see it, read from its event stream: what `--json` prints (the
 * supervisor's events and `{ kind: 'frame', frame }` lines), live from the session or from a file.
 * Every field is read defensively: the lines may come from another ccc version or a file someone
 * edited, and events gain optional fields over time. What is not there stays unknown; nothing is
 * made up.
 */
import { validEvidence, type Evidence } from '../checkers/evidence.js';
import { lookOf } from '../checkers/verdict-look.js';
import { reviewKindOf, verificationOf, type Verification } from '../checkers/verification.js';
import type { ReviewKind } from '../checkers/types.js';
import { addUsage, NO_USAGE, runCost, type Usage } from '../claude/usage.js';
import type { Frame } from '../frames/frame.js';
import { isStopReason, type StopReason } from '../loop/events.js';

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

type Line = Record<string, unknown>;

/** The record of one run from its lines, in order. */
export function runRecord(lines: Iterable<unknown>): RunRecord {
  const reviews: ReviewRecord[] = [];
  let open: { review: ReviewRecord; startedAt?: number } | undefined;
  let task: string | undefined;
  let stopped: { reason: string; message: string } | undefined;
  let agentError: string | undefined;
  let end: Line | undefined;
  let agentCostUsd = 0;
  let caps: Pick<RunRecord, 'capUsd' | 'taskCapUsd' | 'spentUsd' | 'taskSpentUsd'> = {};
  let sessionId: string | undefined;
  let firstAt: string | undefined;
  let lastAt: string | undefined;
  let startAt: string | undefined;

  const close = (result: ReviewResult, feedback: string, at: string | undefined, extra: Partial<ReviewRecord> = {}) => {
    if (!open) return;
    const ended = time(at);
    Object.assign(open.review, { result, feedback, ...extra });
    if (open.startedAt !== undefined && ended !== undefined) open.review.durationMs = Math.max(0, ended - open.startedAt);
    open = undefined;
  };

  for (const raw of lines) {
    if (!isObject(raw)) continue;
    const line = raw as Line;
    const at = str(line.at);
    if (at !== undefined && time(at) !== undefined) {
      firstAt ??= at;
      lastAt = at;
    }
    switch (line.kind) {
      case 'frame': {
        const frame = line.frame;
        if (!isObject(frame)) break;
        const f = frame as Frame;
        if (typeof f.session_id === 'string' && f.session_id) sessionId = f.session_id;
        if (f.type === 'result') agentCostUsd += runCost(f);
        break;
      }
      case 'start':
        task = str(line.task) ?? task;
        startAt ??= at;
        break;
      case 'iteration': {
        close('unfinished', '', at);
        const review: ReviewRecord = { n: num(line.n) ?? reviews.length + 1, checker: '', result: 'unfinished', feedback: '' };
        reviews.push(review);
        open = { review, startedAt: time(at) };
        break;
      }
      case 'checker':
        if (open && str(line.checker)) open.review.checker = str(line.checker)!;
        break;
      case 'verdict': {
        if (!open) {
          const review: ReviewRecord = { n: num(line.iteration) ?? reviews.length + 1, checker: '', result: 'unfinished', feedback: '' };
          reviews.push(review);
          open = { review };
        }
        const usage = usageOf(line.usage);
        caps = definedOnly({
          capUsd: usd(line.cap_usd),
          taskCapUsd: usd(line.task_cap_usd),
          spentUsd: usd(line.spent_usd),
          taskSpentUsd: usd(line.task_spent_usd),
        });
        const evidence = validEvidence(line.evidence);
        const review = reviewKindOf(line.review);
        const opinions = opinionsOf(line.opinions);
        // Derived from the verdict and its evidence, never read from the line: a log cannot claim a verification.
        close(line.completed === true ? 'complete' : 'not complete', str(line.feedback) ?? '', at, {
          checker: str(line.checker) ?? open.review.checker,
          verification: verificationOf(line.completed === true, evidence),
          ...(evidence ? { evidence } : {}),
          ...(review ? { review } : {}),
          ...(opinions ? { opinions } : {}),
          ...(usage ? { usage } : {}),
        });
        break;
      }
      case 'error': {
        const message = str(line.message) ?? '';
        const usage = usageOf(line.usage);
        if (open) close('failed', message, at, usage ? { usage } : {});
        else agentError = message;
        break;
      }
      case 'stopped': {
        const reason = str(line.reason) ?? '';
        const message = str(line.message) ?? '';
        if (open) close(reason === 'cancelled' ? 'cancelled' : 'failed', message, at);
        stopped = { reason, message };
        break;
      }
      case 'end':
        end = line;
        break;
      default:
        break;
    }
  }
  close('unfinished', '', lastAt);

  const reviewUsage = usageOf(end?.review_usage) ?? reviews.reduce((sum, r) => (r.usage ? addUsage(sum, r.usage) : sum), NO_USAGE);
  const exitCode = end ? num(end.exit_code) : undefined;
  const last = reviews[reviews.length - 1];
  let outcome: Outcome;
  let message: string | undefined;
  if (!end) {
    outcome = 'unfinished';
    message = agentError ?? stopped?.message;
  } else if (stopped) {
    outcome = isStopReason(stopped.reason) && stopped.reason !== 'goal' ? stopped.reason : 'error';
    message = stopped.message;
  } else if (agentError !== undefined) {
    outcome = 'error';
    message = agentError;
  } else if (last?.result === 'complete' || exitCode === 0) {
    outcome = 'completed';
  } else {
    outcome = 'error';
  }
  const startedAt = startAt ?? firstAt;
  const endedAt = str(end?.at) ?? lastAt;
  const started = time(startedAt);
  const ended = time(endedAt);
  const completed = outcome === 'completed' && last?.result === 'complete';
  return {
    ...(task !== undefined ? { task } : {}),
    outcome,
    completed,
    verification: completed ? (last.verification ?? 'unverified') : 'failed',
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(message !== undefined && message !== '' ? { message } : {}),
    reviews,
    reviewUsage,
    agentCostUsd: Math.round(agentCostUsd * 1e10) / 1e10,
    ...caps,
    ...(sessionId ? { sessionId } : {}),
    ...(startedAt ? { startedAt } : {}),
    ...(endedAt ? { endedAt } : {}),
    ...(started !== undefined && ended !== undefined ? { durationMs: Math.max(0, ended - started) } : {}),
  };
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

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const v = value as Record<string, unknown>;
  const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);
  return addUsage(NO_USAGE, {
    input_tokens: count(v.input_tokens),
    cache_read_input_tokens: count(v.cache_read_input_tokens),
    cache_creation_input_tokens: count(v.cache_creation_input_tokens),
    output_tokens: count(v.output_tokens),
    cost_usd: count(v.cost_usd),
    ...(count(v.unpriced_tokens) > 0 ? { unpriced_tokens: count(v.unpriced_tokens) } : {}),
  });
}

/** A dollar amount as a line may carry it: a finite number, not below 0. */
function usd(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

function definedOnly<T extends Record<string, number | undefined>>(fields: T): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, number>>;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A verdict line's opinions: each with a name and a boolean, or none at all (a junk entry is not half-trusted). */
function opinionsOf(value: unknown): ReviewerSaid[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const said = value.map((o: unknown) => {
    const entry = (o ?? {}) as Record<string, unknown>;
    return typeof entry.checker === 'string' && typeof entry.completed === 'boolean' ? { checker: entry.checker, completed: entry.completed } : undefined;
  });
  return said.every((o) => o !== undefined) ? said : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function time(at: string | undefined): number | undefined {
  if (at === undefined) return undefined;
  const t = Date.parse(at);
  return Number.isNaN(t) ? undefined : t;
}
