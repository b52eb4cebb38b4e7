/**
 * How much of a request the prompt cache can serve from an earlier one: the longest common prefix
 * of the two requests in the order the cache reads them (tools, then system, then messages), as a
 * share of the later request. `cache_control` markers and the per-request billing header line are
 * removed (they change from request to request without changing what is cached), and a message
 * whose content is a plain string is written as the one text block it stands for.
 */
import type { MessagesBody } from './model-server.js';

export function canonicalRequest(body: MessagesBody): string {
  const system = (typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []))
    .map((block) => ({ ...block, text: withoutBillingHeader(block.text ?? '') }))
    .filter((block) => block.text !== '');
  const messages = body.messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }));
  return [body.tools ?? [], system, messages].map((part) => JSON.stringify(withoutCacheControl(part))).join('');
}

/** The share (0..1) of `later` that is a prefix of `earlier`. */
export function sharedPrefixShare(earlier: MessagesBody, later: MessagesBody): number {
  const b = canonicalRequest(later);
  return b.length === 0 ? 0 : sharedPrefixLength(canonicalRequest(earlier), b) / b.length;
}

/** How many characters `a` and `b` share from their start. */
export function sharedPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function withoutBillingHeader(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('x-anthropic-billing-header'))
    .join('\n');
}

function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'cache_control')
        .map(([key, v]) => [key, withoutCacheControl(v)]),
    );
  }
  return value;
}
