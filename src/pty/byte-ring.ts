/**
 * The last `capacity` bytes of a stream, in one buffer allocated at the first write: the Node
 * proxy's tail for late joiners, and what the screen mirror replays for one. Writes copy, so callers may reuse what they pass in, and a
 * flood costs no allocation at all here.
 */
export class ByteRing {
  private data: Buffer | undefined;
  /** Where the next byte goes. */
  private end = 0;
  private size = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.size;
  }

  write(bytes: Uint8Array): void {
    if (this.capacity === 0 || bytes.length === 0) return;
    const data = (this.data ??= Buffer.allocUnsafeSlow(this.capacity));
    const kept = bytes.length > this.capacity ? bytes.subarray(bytes.length - this.capacity) : bytes;
    const first = Math.min(kept.length, this.capacity - this.end);
    data.set(kept.subarray(0, first), this.end);
    data.set(kept.subarray(first), 0);
    this.end = (this.end + kept.length) % this.capacity;
    this.size = Math.min(this.capacity, this.size + kept.length);
  }

  clear(): void {
    this.end = 0;
    this.size = 0;
  }

  /** Forgets everything, then keeps the end of `bytes`. */
  replace(bytes: Uint8Array): void {
    this.clear();
    this.write(bytes);
  }

  /** The kept bytes, oldest first, in a buffer of their own (safe to transfer to a worker). */
  contents(): Buffer {
    return this.last(this.size);
  }

  /** The last `count` bytes (at most `length`), in a buffer of their own. */
  last(count: number): Buffer {
    const size = Math.min(count, this.size);
    const out = Buffer.allocUnsafeSlow(size);
    if (!this.data || size === 0) return out;
    const start = (this.end - size + this.capacity) % this.capacity;
    const first = Math.min(size, this.capacity - start);
    this.data.copy(out, 0, start, start + first);
    this.data.copy(out, first, 0, size - first);
    return out;
  }
}
