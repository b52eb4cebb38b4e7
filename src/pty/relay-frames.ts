/**
 * The frames on the socket between ccc and `ccc-relay` (native/relay.c has the full table):
 * one type byte, a little-endian u32 payload length, the payload. The decoder takes the socket's
 * chunks as they come, split anywhere, and hands out payloads as views of the chunk when a frame
 * lies inside one (no copy on the observer path).
 */

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
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  /** Returns the frames completed by `chunk`; throws on a length no relay sends. */
  push(chunk: Buffer): RelayFrame[] {
    const frames: RelayFrame[] = [];
    let data = chunk;
    if (this.pendingBytes > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < HEADER) return frames;
      const need = frameLength(Buffer.concat(this.pending, HEADER));
      if (this.pendingBytes < need) return frames;
      data = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    }
    let at = 0;
    while (data.length - at >= HEADER) {
      const length = frameLength(data.subarray(at, at + HEADER));
      if (data.length - at < length) break;
      frames.push({ type: String.fromCharCode(data[at]!), payload: data.subarray(at + HEADER, at + length) });
      at += length;
    }
    if (at < data.length) {
      this.pending = [data.subarray(at)];
      this.pendingBytes = data.length - at;
    }
    return frames;
  }
}

/** Header plus payload length of the frame whose header starts `header`. */
function frameLength(header: Buffer): number {
  const length = header.readUInt32LE(1);
  if (length > MAX_FRAME_BYTES) throw new Error(`relay frame of ${length} bytes (type ${JSON.stringify(String.fromCharCode(header[0]!))}): the stream is broken`);
  return HEADER + length;
}
