/**
 * The Stop hook input of Claude Code (its fields: docs/design/claude-facts.md), validated at the entry. Everything
 * downstream works with `StopEvent`, never with raw hook JSON.
 */
import { errorText } from '../errors.js';

export interface StopEvent {
  sessionId: string;
  transcriptPath?: string;
  cwd: string;
  /** True when the agent is already continuing because a Stop hook blocked. */
  stopHookActive: boolean;
  lastAssistantMessage?: string;
  /** Work still running in the background; a review waits until it is empty. */
  backgroundTasks: unknown[];
  /** The raw input, kept for hook-kind checkers that want every field. */
  raw: Record<string, unknown>;
}

/** A turn that ended without a Stop hook (a `claude -p` turn, a kanban Implementor's run): what ccc knows of it. */
export interface EndedTurn {
  sessionId: string;
  cwd: string;
  /** Where claude keeps the session's transcript (transcriptPathFor), '' when there is none to read. */
  transcriptPath: string;
  /** The turn's number in the run, from 1: every turn after the first answers a block. */
  turn: number;
  /** The turn's last text, as the Stop hook would give it. */
  lastAssistantMessage: string;
}

/**
 * The stop ccc makes itself for such a turn, as claude's Stop hook would have said it: the hook is
 * active from the second turn on (it answers a block), nothing runs in the background (the turn's
 * process has exited), and there is no raw hook input for a hook-kind checker to read.
 */
export function turnStop(turn: EndedTurn): StopEvent {
  return {
    sessionId: turn.sessionId,
    transcriptPath: turn.transcriptPath,
    cwd: turn.cwd,
    stopHookActive: turn.turn > 1,
    lastAssistantMessage: turn.lastAssistantMessage,
    backgroundTasks: [],
    raw: {},
  };
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

const MAX_INPUT_BYTES = 64 * 1024 * 1024;

export function parseStopInput(text: string): ParseResult<StopEvent> {
  if (text.length > MAX_INPUT_BYTES) return { ok: false, error: `hook input is larger than ${MAX_INPUT_BYTES} bytes` };
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return { ok: false, error: 'hook input is empty (expected the Stop hook JSON on stdin)' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, error: `hook input is not JSON (${errorText(error)})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'hook input is not a JSON object' };
  const raw = value as Record<string, unknown>;
  const sessionId = raw.session_id ?? raw.sessionId;
  if (typeof sessionId !== 'string' || !sessionId) return { ok: false, error: 'hook input has no session_id' };
  const cwd = typeof raw.cwd === 'string' && raw.cwd ? raw.cwd : process.cwd();
  return {
    ok: true,
    value: {
      sessionId,
      transcriptPath: typeof raw.transcript_path === 'string' ? raw.transcript_path : undefined,
      cwd,
      stopHookActive: raw.stop_hook_active === true,
      lastAssistantMessage: typeof raw.last_assistant_message === 'string' ? raw.last_assistant_message : undefined,
      backgroundTasks: Array.isArray(raw.background_tasks) ? raw.background_tasks : [],
      raw,
    },
  };
}
