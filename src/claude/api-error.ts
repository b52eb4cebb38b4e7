/**
 * A model API failure of a `claude -p` run, said by name. When every attempt fails (401, 429,
 * 529, 5xx, no connection), claude exits 1 with nothing on stderr; what happened is only in its
 * last `result` frame (`is_error`, `api_error_status`, `api_error_type`, `terminal_reason`, and
 * the text "API Error: …"), after one `system`/`api_retry` frame per retry. A request over the
 * model's context window is a 400 whose result frame says `terminal_reason: "prompt_too_long"`
 * and explains itself ("Prompt is too long · …"): not a failure to reach the model. Pinned in
 * test/claude/api-error.test.ts and test/claude/rate-limit.test.ts.
 */
import type { ClaudePrintResult } from './claude-print.js';
import type { ModelFailureKind } from '../errors.js';

export type { ModelFailureKind };

/** Names Node's table lacks. */
const STATUS_NAMES: Record<number, string> = { 529: 'Overloaded' };

export interface ModelFailure {
  kind: ModelFailureKind;
  /** "529 Overloaded (after 2 retries): Repeated 529 Overloaded errors. …" */
  text: string;
}

/** The run's model API failure, or undefined when it did not end on one. */
export function modelFailure(result: Pick<ClaudePrintResult, 'resultFrame' | 'apiRetries'>): ModelFailure | undefined {
  const frame = result.resultFrame;
  if (!frame || frame.is_error !== true) return undefined;
  const text = typeof frame.result === 'string' ? frame.result.trim() : '';
  const status = typeof frame.api_error_status === 'number' ? frame.api_error_status : undefined;
  if (frame.terminal_reason === 'prompt_too_long') return { kind: 'context-full', text: `${status ?? 400} ${statusName(status ?? 400)}: ${text}` };
  if (status === undefined && frame.terminal_reason !== 'api_error' && !text.startsWith('API Error')) return undefined;
  const name = status === undefined ? 'no connection' : `${status} ${statusName(status)}`;
  const retries = result.apiRetries === 1 ? ' (after 1 retry)' : result.apiRetries > 1 ? ` (after ${result.apiRetries} retries)` : '';
  const detail = text.replace(/^API Error:\s*/, '');
  const kind: ModelFailureKind = status === 429 ? 'rate-limited' : status === 529 ? 'overloaded' : 'unreachable';
  return { kind, text: `${name}${retries}${detail ? `: ${detail}` : ''}` };
}

/**
 * The failure claude's StopFailure hook names, the one word of a refused turn in the TUI
 * (docs/design/claude-facts.md, "A turn refused in the TUI"): `error` is `rate_limit` for a 429 and
 * `server_error` for a 529, whose status is only in the message (`API Error: 529 Overloaded…`).
 */
export function stopFailureOf(input: Record<string, unknown>): ModelFailure | undefined {
  if (input.hook_event_name !== 'StopFailure') return undefined;
  const message = typeof input.last_assistant_message === 'string' ? input.last_assistant_message.trim() : '';
  const error = typeof input.error === 'string' ? input.error : 'unknown';
  const kind: ModelFailureKind =
    error === 'rate_limit'
      ? 'rate-limited'
      : error === 'server_error' && /^API Error: 529\b/.test(message)
        ? 'overloaded'
        : /^Prompt is too long/.test(message)
          ? 'context-full'
          : 'unreachable';
  return { kind, text: message.replace(/^API Error:\s*/, '') || error };
}

/**
 * The sentence for a person: what failed, said as what it is. A conversation over the context
 * window is not a network problem, and a rate limit is not one either: each says what to do.
 */
export function modelFailureSentence(who: 'agent' | 'reviewer', failure: ModelFailure): string {
  switch (failure.kind) {
    case 'context-full':
      return who === 'agent'
        ? `the agent's conversation no longer fits the model's context window (${failure.text}); compact it (\`/compact\` in Claude Code) or continue in a new session`
        : `the review does not fit the model's context window: the forked review carries the whole conversation (${failure.text}); compact the session (\`/compact\` in Claude Code) before the next review`;
    case 'rate-limited':
      return `the ${who} was rate limited by the model's API: ${failure.text}`;
    default:
      return `the ${who} could not reach the model: ${failure.text}`;
  }
}

function statusName(status: number): string {
  return STATUS_NAMES[status] ?? process.getBuiltinModule('node:http').STATUS_CODES[status] ?? 'error';
}
