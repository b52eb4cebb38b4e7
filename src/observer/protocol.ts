/**
 * The observer wire protocol (docs/design/observer.md, "The protocol"). Every message is one JSON text frame with a
 * `type`. A joiner receives, in this order: `hello`, one `pty` message with `snapshot: true`
 * (the serialized screen), the events so far, then live `pty`, `frame` and `event` messages, and
 * `bye` when the session ends. `hello` is sent again when the session id or the user's terminal
 * size changes. Observers may send only `input`, and it is ignored unless input is allowed.
 */
// The wire carries the loop's events as the loop defines them.
import type { SupervisorEvent } from '../loop/events.js';
import { base64Into, base64Length } from './base64-into.js';

/** Who is being watched. `cols`/`rows` are the user's terminal size. */
export interface ObserverHello {
  session_id?: string;
  cwd: string;
  command: string[];
  cols: number;
  rows: number;
  started_at: string;
}

/**
 * What the supervisor did, in the order it happened: the loop's own events, sent as they are
 * (phase, iteration, checker start/end, verdict, stopped, error, end). Clients show kinds they do
 * not know generically, so the loop may add kinds without breaking an older page.
 */
export type ObserverEvent = SupervisorEvent;

export type ServerMessage =
  | { type: 'hello'; session: ObserverHello; input: boolean }
  /** `data` is base64 terminal output; `snapshot` marks the serialized screen a joiner starts from. */
  | { type: 'pty'; data: string; snapshot?: true }
  | { type: 'frame'; frame: object }
  | { type: 'event'; event: ObserverEvent }
  | { type: 'bye' };

type ClientMessage = { type: 'input'; data: string };

/** Larger observer messages are refused: input is keystrokes and pastes, never megabytes. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; reason: string };

/** Validates one message from an observer. Never throws; the reason goes into the close frame. */
export function parseClientMessage(data: Buffer, isBinary: boolean): ParsedClientMessage {
  if (isBinary) return { ok: false, reason: 'binary messages are not accepted; send JSON text' };
  if (data.length > MAX_CLIENT_MESSAGE_BYTES) {
    return { ok: false, reason: `message too large (${data.length} bytes, max ${MAX_CLIENT_MESSAGE_BYTES})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    return { ok: false, reason: 'message is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'message must be a JSON object with a "type"' };
  }
  const record = value as Record<string, unknown>;
  if (record.type !== 'input') {
    return { ok: false, reason: `unknown message type ${JSON.stringify(String(record.type)).slice(0, 40)}` };
  }
  if (typeof record.data !== 'string') return { ok: false, reason: 'input message needs a string "data"' };
  return { ok: true, message: { type: 'input', data: record.data } };
}

/** Encodes a server message once, as the bytes of a text frame shared by every observer. */
export function encodeMessage(message: ServerMessage): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}

/** The pty message without building an intermediate object (it is the most frequent one). */
export function encodePty(bytes: Uint8Array, snapshot = false, alloc: (length: number) => Buffer = (length) => Buffer.allocUnsafe(length)): Buffer {
  // The base64 goes straight into the message: one buffer from the output to every socket, no
  // string (the observer path of a flood would allocate megabytes a second).
  const suffix = snapshot ? PTY_SNAPSHOT_SUFFIX : PTY_SUFFIX;
  const message = alloc(PTY_PREFIX.length + base64Length(bytes.length) + suffix.length);
  PTY_PREFIX.copy(message, 0);
  const end = base64Into(bytes, message, PTY_PREFIX.length);
  suffix.copy(message, end);
  return message;
}

const PTY_PREFIX = Buffer.from('{"type":"pty","data":"');
const PTY_SUFFIX = Buffer.from('"}');
const PTY_SNAPSHOT_SUFFIX = Buffer.from('","snapshot":true}');
