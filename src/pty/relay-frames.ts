/**
 * The frames on the socket between ccc and `ccc-relay` (native/relay.c has the full table):
 * one type byte, a little-endian u32 payload length, the payload. The decoder takes the socket's
 * chunks as they come, split anywhere, and hands out payloads as views (of the chunk when a frame
 * lies inside one; otherwise of a reused buffer it was assembled in), so the observer path
 * allocates nothing per frame.
 */
import { ReusedBuffer } from './reused-buffer.js';

export interface RelayFrame {
  type: string;
  payload: Buffer;
}

const HEADER = 5;
/** Larger than anything the relay sends (its tee queue is 4 MiB); a bigger length is a broken stream. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export function encodeRelayFrame(type: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const frame = Buffer.allocUnsafe(HEADER + payload.length);
  frame[0] = type.charCodeAt(0);
  frame.writeUInt32LE(payload.length, 1);
  payload.copy(frame, HEADER);
  return frame;
}

export class RelayFrameDecoder {
  /** A frame split across reads is put together here (4 MiB kept; the relay's frames are smaller). */
  private readonly partial = new ReusedBuffer(64 * 1024, 4 * 1024 * 1024);

  /**
   * Calls `onFrame` for each frame `chunk` completes, in order. A payload is a view of `chunk` or
   * of the decoder's own buffer, valid only during that call: keep a copy, not the view (a frame
   * split across reads costs one copy into a buffer that is reused, not an allocation).
   * Throws on a length no relay sends.
   */
  push(chunk: Buffer, onFrame: (frame: RelayFrame) => void): void {
    let at = 0;
    if (this.partial.length > 0) {
      at = this.take(chunk, 0, HEADER);
      if (this.partial.length < HEADER) return;
      const length = frameLength(this.partial.bytes());
      at = this.take(chunk, at, length);
      if (this.partial.length < length) return;
      const frame = this.partial.bytes();
      onFrame({ type: String.fromCharCode(frame[0]!), payload: frame.subarray(HEADER, length) });
      this.partial.clear();
    }
    while (chunk.length - at >= HEADER) {
      const length = frameLength(chunk.subarray(at, at + HEADER));
      if (chunk.length - at < length) break;
      onFrame({ type: String.fromCharCode(chunk[at]!), payload: chunk.subarray(at + HEADER, at + length) });
      at += length;
    }
    if (at < chunk.length) this.partial.append(chunk.subarray(at));
  }

  /** Appends bytes of `chunk` from `at` until the partial frame holds `upTo` bytes; returns where it stopped. */
  private take(chunk: Buffer, at: number, upTo: number): number {
    const count = Math.max(0, Math.min(upTo - this.partial.length, chunk.length - at));
    this.partial.append(chunk.subarray(at, at + count));
    return at + count;
  }
}

/** Header plus payload length of the frame whose header starts `header`. */
function frameLength(header: Buffer): number {
  const length = header.readUInt32LE(1);
  if (length > MAX_FRAME_BYTES)
    throw new Error(`relay frame of ${length} bytes (type ${JSON.stringify(String.fromCharCode(header[0]!))}): the stream is broken`);
  return HEADER + length;
}
