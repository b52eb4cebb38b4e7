/**
 * One stream-json message of Claude Code, as found in `-p --output-format stream-json` output
 * and (same shapes) in the session transcript. Only the fields ccc reads are typed; everything
 * else is kept as-is.
 */
export interface Frame {
  type: string;
  subtype?: string;
  /** stream-json says `session_id`; the documents say `sessionId`. Both are accepted. */
  session_id?: string;
  sessionId?: string;
  [key: string]: unknown;
}

export function frameSessionId(frame: Frame): string | undefined {
  const id = frame.session_id ?? frame.sessionId;
  return typeof id === 'string' ? id : undefined;
}
