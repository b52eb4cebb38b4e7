/**
 * Observer messages as WebSocket text frames (RFC 6455 §5.2: final, unmasked, opcode 1), each
 * built once and written to every socket as one buffer. A message made by `allocFramable` has room
 * for the frame header in front of it, so framing it writes the header there and copies nothing:
 * during a flood the pty messages are megabytes a second, and every copy is memory the garbage
 * collector has to find. Any other Buffer is copied behind a fresh header.
 */

/** The longest header: 2 bytes, then a 64-bit length. */
export const FRAME_HEADROOM = 10;
const headroom = new WeakSet<Buffer>();
const framed = new WeakMap<Buffer, Buffer>();

/** An uninitialised message of `length` bytes with room for its frame header before it. */
export function allocFramable(length: number): Buffer {
  // Never from Buffer's shared pool: the bytes in front of the message are written when it is framed.
  return framableIn(Buffer.allocUnsafeSlow(FRAME_HEADROOM + length), length);
}

/** A message of `length` bytes in `whole` (which nothing else uses), after room for its header. */
export function framableIn(whole: Buffer, length: number): Buffer {
  const message = whole.subarray(FRAME_HEADROOM, FRAME_HEADROOM + length);
  headroom.add(message);
  return message;
}

/** `payload` as a text frame, the same Buffer for the same payload. */
export function textFrame(payload: Buffer): Buffer {
  const known = framed.get(payload);
  if (known) return known;
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const inPlace = headroom.has(payload);
  const frame = inPlace ? Buffer.from(payload.buffer, payload.byteOffset - header, header + length) : Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = length;
  else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!inPlace) payload.copy(frame, header);
  framed.set(payload, frame);
  return frame;
}
