/**
 * Finds the places in a terminal byte stream where a late joiner may start reading: outside any
 * escape sequence and between UTF-8 characters. The screen snapshot for a joiner is taken at such
 * a place, so the live bytes that follow it never begin with the tail of a sequence (which a
 * fresh terminal would print as garbage like `1mred`).
 *
 * It runs the byte path's recognizer (VT_NEXT in src/pty/byte-path-rules.ts, the table both proxies
 * use to place ccc's own bytes) one byte at a time, in the screen worker, off the user's hot path.
 */
import { VT_GROUND, VT_NEXT } from '../pty/byte-path-rules.js';

export interface VtBoundary {
  /** True when the bytes fed so far end at a place where a joiner may start. */
  atBoundary(): boolean;
  /** Feeds `data[start..end)`. */
  feed(data: Uint8Array, start?: number, end?: number): void;
  /**
   * Feeds bytes from `start` until the stream reaches a boundary and returns that offset (which
   * is `start` itself when already at one), or -1 after feeding all of `data` without reaching one.
   */
  feedToBoundary(data: Uint8Array, start: number): number;
  reset(): void;
}

export function createVtBoundary(): VtBoundary {
  let state = VT_GROUND;
  const step = (byte: number) => {
    state = VT_NEXT[state * 256 + byte]!;
  };
  return {
    atBoundary: () => state === VT_GROUND,
    feed(data, start = 0, end = data.length) {
      for (let i = start; i < end; i++) step(data[i]!);
    },
    feedToBoundary(data, start) {
      if (state === VT_GROUND) return start;
      for (let i = start; i < data.length; i++) {
        step(data[i]!);
        if (state === VT_GROUND) return i + 1;
      }
      return -1;
    },
    reset() {
      state = VT_GROUND;
    },
  };
}
