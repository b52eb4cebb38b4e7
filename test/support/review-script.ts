/**
 * Helpers for scripting a reviewer at the model server: where a review request stands (how many
 * steps the reviewer took since ccc's review message) and what its tools answered.
 */
import { REVIEW_MESSAGE_MARK, type MessagesBody, type RecordedRequest, type Reply } from './model-server.js';

type Block = { type: string; text?: string; content?: unknown; is_error?: boolean };

/** The number of assistant turns after the review message (0 for the review's first request). */
export function reviewStep(request: RecordedRequest): number {
  const messages = request.body.messages;
  const at = messages.findIndex((m) => m.role === 'user' && textOf(m.content).includes(REVIEW_MESSAGE_MARK));
  return at === -1 ? 0 : messages.slice(at + 1).filter((m) => m.role === 'assistant').length;
}

/**
 * A forked review: the agent's conversation (or claude's summary of it, once compacted) comes
 * before ccc's review message. A fresh reviewer's conversation begins with the review message.
 */
export function isForkedReview(request: RecordedRequest): boolean {
  const at = request.body.messages.findIndex((m) => m.role === 'user' && textOf(m.content).includes(REVIEW_MESSAGE_MARK));
  return at > 0 || request.text.includes(COMPACTED_MARK);
}

/** How claude begins a conversation it compacted (docs/design/claude-facts.md). */
const COMPACTED_MARK = 'This session is being continued from a previous conversation';

/** A summarization request of claude's own compaction: its instructions ask for a `<summary>`. */
export const isCompaction = (request: RecordedRequest): boolean => request.kind === 'agent' && request.lastUserText.includes('<summary>');

/**
 * The tool results of the request's last user message, as text. (Claude 2.1.330 may put a
 * `system` role message after it, e.g. "The user hasn't heard from you in a while".)
 */
export function lastToolResults(request: RecordedRequest): Array<{ text: string; isError: boolean }> {
  const last = request.body.messages.filter((m) => m.role === 'user').pop();
  if (!last || typeof last.content === 'string') return [];
  return (last.content as Block[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ text: textOf(b.content as MessagesBody['messages'][number]['content']), isError: b.is_error === true }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[]).map((b) => (typeof b.text === 'string' ? b.text : textOf(b.content))).join('\n');
}

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface SeenResult {
  call: ToolCall;
  text: string;
  isError: boolean;
}

/**
 * A reviewer that makes `calls` in turn within one review, then answers `verdict`; `seen` gets
 * every tool result as the model server received it. Other requests (the agent's) get `agent`.
 */
export function scriptedReviewer(calls: readonly ToolCall[], verdict: { completed: boolean; feedback: string }, agent: Reply = { text: 'All done.' }) {
  const seen: SeenResult[] = [];
  const scenario = (r: RecordedRequest): Reply => {
    if (r.kind !== 'review') return agent;
    const step = reviewStep(r);
    if (step > 0 && step <= calls.length) {
      const [result] = lastToolResults(r);
      seen.push({ call: calls[step - 1]!, text: result?.text ?? '', isError: result?.isError ?? false });
    }
    const next = calls[step];
    return next ? { toolUse: next } : { verdict };
  };
  return { scenario, seen };
}

export const bashCall = (command: string): ToolCall => ({ name: 'Bash', input: { command, description: 'review step' } });
