/**
 * A model API failure of a `claude -p` run, said by name. When every attempt fails (401, 429,
 * 529, 5xx, no connection), claude exits 1 with nothing on stderr; what happened is only in its
 * last `result` frame (`is_error`, `api_error_status`, `terminal_reason: "api_error"`, and the
 * text "API Error: …"), after one `system`/`api_retry` frame per retry. Pinned in
 * test/claude/api-error.test.ts.
 */
import http from 'node:http';
import type { ClaudePrintResult } from './claude-print.js';

/** Names Node's table lacks. */
const STATUS_NAMES: Record<number, string> = { 529: 'Overloaded' };

/**
 * "529 Overloaded (after 2 retries): Repeated 529 Overloaded errors. …", or undefined when the
 * run did not end on an API error.
 */
export function modelApiError(result: Pick<ClaudePrintResult, 'resultFrame' | 'apiRetries'>): string | undefined {
  const frame = result.resultFrame;
  if (!frame || frame.is_error !== true) return undefined;
  const text = typeof frame.result === 'string' ? frame.result.trim() : '';
  const status = typeof frame.api_error_status === 'number' ? frame.api_error_status : undefined;
  if (status === undefined && frame.terminal_reason !== 'api_error' && !text.startsWith('API Error')) return undefined;
  const name = status === undefined ? 'no connection' : `${status} ${STATUS_NAMES[status] ?? http.STATUS_CODES[status] ?? 'error'}`;
  const retries = result.apiRetries === 1 ? ' (after 1 retry)' : result.apiRetries > 1 ? ` (after ${result.apiRetries} retries)` : '';
  const detail = text.replace(/^API Error:\s*/, '');
  return `${name}${retries}${detail ? `: ${detail}` : ''}`;
}
