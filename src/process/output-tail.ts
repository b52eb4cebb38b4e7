/**
 * Keeps the last `limit` bytes of a child's output (stderr for error reports, stdout of hook
 * and rule commands) in bounded memory: a chatty child never grows ccc.
 */
export interface OutputTail {
  push(chunk: Buffer): void;
  /** The kept bytes as UTF-8, without a character cut in half at the start. */
  text(): string;
  /** True when bytes were dropped from the front. */
  readonly truncated: boolean;
}

export function createOutputTail(limit: number): OutputTail {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    push(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      // Drop whole chunks from the front while the rest still covers the limit.
      while (chunks.length > 1 && size - chunks[0]!.length >= limit) {
        const dropped = chunks.shift()!;
        size -= dropped.length;
        if (dropped.length > 0) truncated = true;
      }
    },
    text() {
      const all = Buffer.concat(chunks);
      let start = Math.max(0, all.length - limit);
      if (start > 0) truncated = true;
      // Skip UTF-8 continuation bytes (10xxxxxx) left over from a character cut at the front.
      while (start > 0 && start < all.length && (all[start]! & 0xc0) === 0x80) start += 1;
      return all.subarray(start).toString('utf8');
    },
    get truncated() {
      return truncated;
    },
  };
}
