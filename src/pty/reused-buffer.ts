/**
 * Bytes appended into one buffer that is reused from one batch to the next, so a stream of
 * batches allocates nothing: it grows when a batch needs more and goes back to its starting size
 * after a batch larger than `keepBytes`. Used where the output to observers is gathered (the relay
 * frame decoder, the observer hub).
 */
export class ReusedBuffer {
  private buffer: Buffer;
  private used = 0;

  constructor(
    private readonly startBytes: number,
    private readonly keepBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(startBytes);
  }

  get length(): number {
    return this.used;
  }

  append(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(2 * this.buffer.length, this.used + bytes.length));
      this.buffer.copy(larger, 0, 0, this.used);
      this.buffer = larger;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** What was appended since the last `clear`, as a view valid until the next `clear`. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.used);
  }

  clear(): void {
    this.used = 0;
    if (this.buffer.length > this.keepBytes) this.buffer = Buffer.allocUnsafeSlow(this.startBytes);
  }
}
