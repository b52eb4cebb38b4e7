/**
 * Finds the places in a terminal byte stream where a late joiner may start reading: outside any
 * escape sequence and between UTF-8 characters. The screen snapshot for a joiner is taken at such
 * a place, so the live bytes that follow it never begin with the tail of a sequence (which a
 * fresh terminal would print as garbage like `1mred`).
 *
 * A deliberately small VT500-style recognizer: it only tracks whether a sequence is open, not what
 * it means. It runs in the screen worker, off the user's hot path. Which bytes open and end a
 * sequence are the byte path's rules (src/pty/byte-path-rules.ts), shared with the proxies.
 */
import { BEL, CAN, CSI_FINAL_MAX, CSI_FINAL_MIN, CSI_INTRODUCER, ESC, STRING_INTRODUCERS, STRING_TERMINATOR_FINAL, SUB } from '../pty/byte-path-rules.js';

/** STRING_INTRODUCERS as a lookup by byte. */
const opensString = new Uint8Array(256);
for (const byte of STRING_INTRODUCERS) opensString[byte] = 1;

const enum State {
  Ground,
  /** Inside a UTF-8 character; `pendingContinuations` says how many bytes are still due. */
  Utf8,
  Escape,
  EscapeIntermediate,
  Csi,
  /** OSC, DCS, SOS, PM, APC: a string ended by BEL (OSC) or ST (`ESC \`). */
  String,
  StringEscape,
}

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
  let state = State.Ground;
  let pendingContinuations = 0;

  function step(byte: number): void {
    if (byte === CAN || byte === SUB) {
      state = State.Ground;
      return;
    }
    switch (state) {
      case State.Ground:
        if (byte === ESC) state = State.Escape;
        else if (byte >= 0xc2 && byte <= 0xf4) {
          pendingContinuations = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
          state = State.Utf8;
        }
        return;
      case State.Utf8:
        if (byte >= 0x80 && byte <= 0xbf) {
          if (--pendingContinuations === 0) state = State.Ground;
        } else {
          // A broken character: the decoder gives up on it and this byte starts afresh.
          state = State.Ground;
          step(byte);
        }
        return;
      case State.Escape:
        escapeByte(byte);
        return;
      case State.EscapeIntermediate:
        if (byte === ESC) state = State.Escape;
        else if (byte >= 0x30 && byte <= 0x7e) state = State.Ground;
        return;
      case State.Csi:
        if (byte === ESC) state = State.Escape;
        else if (byte >= CSI_FINAL_MIN && byte <= CSI_FINAL_MAX) state = State.Ground;
        return;
      case State.String:
        if (byte === BEL) state = State.Ground;
        else if (byte === ESC) state = State.StringEscape;
        return;
      case State.StringEscape:
        // ST ends the string; any other byte after ESC ends it too and starts a new sequence.
        if (byte === STRING_TERMINATOR_FINAL) state = State.Ground;
        else escapeByte(byte);
        return;
    }
  }

  function escapeByte(byte: number): void {
    if (byte === CSI_INTRODUCER) state = State.Csi;
    else if (opensString[byte]) state = State.String;
    else if (byte === ESC) state = State.Escape;
    else if (byte >= 0x20 && byte <= 0x2f) state = State.EscapeIntermediate;
    else if (byte >= 0x30 && byte <= 0x7e) state = State.Ground;
    // C0 controls inside an escape are executed and leave it open, as in a real terminal.
  }

  return {
    atBoundary: () => state === State.Ground,
    feed(data, start = 0, end = data.length) {
      for (let i = start; i < end; i++) step(data[i]!);
    },
    feedToBoundary(data, start) {
      if (state === State.Ground) return start;
      for (let i = start; i < data.length; i++) {
        step(data[i]!);
        if ((state as State) === State.Ground) return i + 1;
      }
      return -1;
    },
    reset() {
      state = State.Ground;
      pendingContinuations = 0;
    },
  };
}
