/**
 * Reused buffers for the live pty messages, so a flood to observers allocates nothing per batch.
 * A message is shared by every observer it goes to: the hub holds it while it hands it out
 * (`acquire`, then `release`), each socket write holds it until the write's callback (`retain`,
 * then `release` when the bytes are out or dropped). The last release puts the buffer back. A
 * message whose holder never calls back is simply never reused, and the garbage collector takes
 * it like any other buffer; `retain` and `release` ignore messages that are not from the pool.
 */
/** Free buffers kept for reuse, in bytes; what is released beyond it is left to the collector. */
const KEEP_FREE_BYTES = 8 * 1024 * 1024;
/** Larger messages are allocated on their own. */
const LARGEST_POOLED = 8 * 1024 * 1024;
const SMALLEST_CLASS = 4096;

export class FramePool {
  private readonly free = new Map<number, Buffer[]>();
  private freeBytes = 0;
  private readonly holders = new WeakMap<Buffer, { whole: Buffer; count: number }>();

  constructor(private readonly keepFreeBytes = KEEP_FREE_BYTES) {}

  /** An uninitialised message of `length` bytes, held once. */
  acquire(length: number): Buffer {
    const size = sizeClass(length);
    if (size > LARGEST_POOLED) return Buffer.allocUnsafeSlow(length);
    let whole = this.free.get(size)?.pop();
    if (whole) this.freeBytes -= size;
    else whole = Buffer.allocUnsafeSlow(size);
    const message = whole.subarray(0, length);
    this.holders.set(message, { whole, count: 1 });
    return message;
  }

  retain(message: Buffer): void {
    const held = this.holders.get(message);
    if (held) held.count += 1;
  }

  release(message: Buffer): void {
    const held = this.holders.get(message);
    if (!held || --held.count > 0) return;
    this.holders.delete(message);
    if (this.freeBytes + held.whole.length > this.keepFreeBytes) return;
    const list = this.free.get(held.whole.length) ?? [];
    list.push(held.whole);
    this.free.set(held.whole.length, list);
    this.freeBytes += held.whole.length;
  }

  get freeBufferBytes(): number {
    return this.freeBytes;
  }
}

/** Sizes in quarter steps between powers of two: at most a quarter of a buffer goes unused. */
export function sizeClass(bytes: number): number {
  if (bytes <= SMALLEST_CLASS) return SMALLEST_CLASS;
  const power = 2 ** Math.floor(Math.log2(bytes));
  const step = power / 4;
  return power + Math.ceil((bytes - power) / step) * step;
}

/** The pool the observer hub and its sockets share. */
export const framePool = new FramePool();
