/**
 * A codex turn that failed, said by name in claude's terms (claude/api-error.ts), so that a rate
 * limit or an overloaded model is waited out as a claude review's is (loop/limit-wait.ts). Codex
 * has already retried (five times, by default) when it gives up; what it says then, as the real
 * codex prints it against the scripted server: `exceeded retry limit, last status: 429 Too Many
 * Requests`, "You've hit your usage limit… try again at 9:06 PM" (a subscription's window),
 * "We're currently experiencing high demand…" (a 500), `unexpected status 503 Service
 * Unavailable: …`, `unexpected status 401 Unauthorized: …`.
 */
import type { ModelFailure, ModelFailureKind } from '../../claude/api-error.js';

const RULES: ReadonlyArray<[RegExp, ModelFailureKind]> = [
  [/context[_ ]length[_ ]exceeded|context window/i, 'context-full'],
  [/\b429\b|too many requests|rate limit|usage limit|insufficient_quota|quota/i, 'rate-limited'],
  [/\b(?:503|529)\b|overloaded|high demand/i, 'overloaded'],
];

/** The failure of a codex turn that could not reach the model, or undefined for any other (a missing API key, a bad config). */
export function codexModelFailure(message: string): ModelFailure | undefined {
  const text = message.trim();
  for (const [pattern, kind] of RULES) if (pattern.test(text)) return { kind, text };
  if (/unexpected status \d{3}|stream (?:disconnected|closed|error)|idle timeout|error sending request|connection/i.test(text))
    return { kind: 'unreachable', text };
  return undefined;
}
