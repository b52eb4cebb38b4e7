/** The shape of `supervisor-<session_id>.json`, and a strict reader for it. */
import { validEvidence, type Evidence } from '../checkers/evidence.js';
import { isPlainObject } from '../config/rules.js';

export interface SessionVerdict {
  checker: string;
  completed: boolean;
  feedback: string;
  /** ISO 8601 time of the verdict. */
  at: string;
  /** What the review cost (USD), when a checker spent anything. */
  cost_usd?: number;
  /** What the run and its task had spent at this verdict, and their caps (USD; src/loop/cost-cap.ts). */
  spent_usd?: number;
  cap_usd?: number;
  task_spent_usd?: number;
  task_cap_usd?: number;
  /** The verification commands the round ran, with their exit codes. */
  evidence?: Evidence[];
  /** The claude reviewer's kind of review (`forked`, `compacted`, `fresh`; checkers/types.ts `ReviewKind`). */
  review?: string;
}

export interface SessionState {
  session_id: string;
  /** Reviews run so far in this session (0 before the first). */
  iteration: number;
  max_iterations: number;
  /** False when the user turned supervision off for this session. */
  enabled: boolean;
  /** The user's own prompts in the transcript at the last review (headless: what its run knew when unread). */
  prompt_count: number;
  /**
   * Lines of the transcript read at the last review: every stop follows at least one new line, so
   * a transcript with no more is one Claude Code has not flushed yet. Recorded by every mode, so a
   * session resumed in another mode never takes its history for the new turn.
   */
  transcript_frames?: number;
  created_at: string;
  updated_at: string;
  last_verdict?: SessionVerdict;
  /**
   * A limit was reached and the agent was sent its last message (the wind-down): the stop that
   * ends that turn is let through unreviewed, with this reason and message.
   */
  wind_down?: { reason: string; message: string };
  /**
   * The project when the last task ended, where the next one begins (checkers/reviewer/task-baseline.ts;
   * validated where it is used).
   */
  task_baseline?: unknown;
  /** What every verdict's review of this session cost (USD), summed: the standalone hook's reviews across its stops. */
  review_cost_usd?: number;
  /** The session's spend (USD, as the mode counts it) when its current task began: the per-task cap counts from here. */
  task_cost_from_usd?: number;
  /**
   * Where the standalone hook's last reading of the transcript stopped, with the summary of what it
   * read (frames/transcript-cursor.ts; validated where it is used: one that is not valid is read
   * from the start, never taken for a corrupt state).
   */
  transcript_cursor?: unknown;
}

const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const text = (v: unknown) => typeof v === 'string';
const usd = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * The state in `text`, or undefined when it is not valid JSON of the right shape. The file
 * belongs to `sessionId`: a file claiming another session is as good as corrupt.
 */
export function parseSessionState(content: string, sessionId: string): SessionState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const ok =
    value.session_id === sessionId &&
    count(value.iteration) &&
    count(value.max_iterations) &&
    typeof value.enabled === 'boolean' &&
    count(value.prompt_count) &&
    (value.transcript_frames === undefined || count(value.transcript_frames)) &&
    text(value.created_at) &&
    text(value.updated_at) &&
    (value.last_verdict === undefined || isVerdict(value.last_verdict)) &&
    (value.wind_down === undefined || (isPlainObject(value.wind_down) && text(value.wind_down.reason) && text(value.wind_down.message))) &&
    (value.review_cost_usd === undefined || usd(value.review_cost_usd)) &&
    (value.task_cost_from_usd === undefined || usd(value.task_cost_from_usd));
  if (!ok) return undefined;
  const state: SessionState = {
    session_id: sessionId,
    iteration: value.iteration as number,
    max_iterations: value.max_iterations as number,
    enabled: value.enabled as boolean,
    prompt_count: value.prompt_count as number,
    created_at: value.created_at as string,
    updated_at: value.updated_at as string,
  };
  if (value.transcript_frames !== undefined) state.transcript_frames = value.transcript_frames as number;
  if (value.last_verdict !== undefined) state.last_verdict = value.last_verdict as SessionVerdict;
  if (isPlainObject(value.task_baseline)) state.task_baseline = value.task_baseline;
  if (isPlainObject(value.transcript_cursor)) state.transcript_cursor = value.transcript_cursor;
  if (value.review_cost_usd !== undefined) state.review_cost_usd = value.review_cost_usd as number;
  if (value.task_cost_from_usd !== undefined) state.task_cost_from_usd = value.task_cost_from_usd as number;
  if (value.wind_down !== undefined) {
    const { reason, message } = value.wind_down as { reason: string; message: string };
    state.wind_down = { reason, message };
  }
  return state;
}

function isVerdict(value: unknown): value is SessionVerdict {
  return (
    isPlainObject(value) &&
    text(value.checker) &&
    typeof value.completed === 'boolean' &&
    text(value.feedback) &&
    text(value.at) &&
    (value.cost_usd === undefined || (typeof value.cost_usd === 'number' && value.cost_usd >= 0)) &&
    ['spent_usd', 'cap_usd', 'task_spent_usd', 'task_cap_usd'].every((key) => value[key] === undefined || usd(value[key])) &&
    (value.evidence === undefined || validEvidence(value.evidence) !== undefined) &&
    (value.review === undefined || text(value.review))
  );
}
