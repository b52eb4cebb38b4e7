/**
 * What a TUI may leave switched on in the user's terminal, and where ccc's own bytes may go, by
 * the rules in byte-path-rules.ts (native/relay.c follows the same rules in C).
 * Only the alternate screen needs tracking: leaving it when it was never entered would restore a
 * cursor position that was never saved.
 */
import {
  ALT_SCREEN_ENTER,
  ALT_SCREEN_EXIT,
  ALT_SCREEN_LEAVE,
  ALT_SCREEN_PREFIX,
  BEL,
  CSI_FINAL_MAX,
  CSI_FINAL_MIN,
  CSI_INTRODUCER,
  ESC,
  ESCAPE_LOOKBACK,
  MODE_RESETS,
  STRING_INTRODUCERS,
} from './byte-path-rules.js';

const ALT_SCREEN = Buffer.from(ALT_SCREEN_PREFIX);

export class AltScreenTracker {
  active = false;
  /** The end of the previous chunk: an enter or leave may be split across reads. */
  private carry = Buffer.alloc(0);

  /**
   * The last enter or leave decides. One backward search for the shared prefix costs an eighth of
   * searching for both sequences (0.5 µs against 4 µs per 4 KiB chunk of text), and this runs on
   * every chunk of the byte path; a sequence split across chunks is found in the previous chunk's
   * last bytes joined to this one's first.
   */
  observe(chunk: Buffer): void {
    const inChunk = lastSwitch(chunk);
    if (inChunk !== undefined) this.active = inChunk;
    else if (this.carry.length > 0) {
      const seam = Buffer.concat([this.carry, chunk.subarray(0, ALT_SCREEN.length)]);
      const split = lastSwitch(seam);
      if (split !== undefined) this.active = split;
    }
    const keep = ALT_SCREEN.length;
    this.carry = chunk.length >= keep ? Buffer.from(chunk.subarray(chunk.length - keep)) : Buffer.concat([this.carry, chunk]).subarray(-keep);
  }
}

/** True for an enter, false for a leave, undefined when the bytes hold neither. */
function lastSwitch(bytes: Buffer): boolean | undefined {
  for (let at = bytes.lastIndexOf(ALT_SCREEN); at !== -1; at = at > 0 ? bytes.lastIndexOf(ALT_SCREEN, at - 1) : -1) {
    const final = bytes[at + ALT_SCREEN.length];
    if (final === ALT_SCREEN_ENTER || final === ALT_SCREEN_LEAVE) return final === ALT_SCREEN_ENTER;
  }
  return undefined;
}

export function resetSequence(altScreenActive: boolean): string {
  return (altScreenActive ? ALT_SCREEN_EXIT : '') + MODE_RESETS;
}

/**
 * True when the chunk ends inside an escape or UTF-8 sequence, so nothing may be injected after it
 * yet (a title update written there would corrupt the agent's sequence). Looks only at the tail.
 */
export function safeToInjectAfter(chunk: Buffer | undefined): boolean {
  return !chunk || (!endsInsideEscape(chunk) && !endsInsideUtf8(chunk));
}

/** True when the last bytes are an incomplete UTF-8 sequence. */
export function endsInsideUtf8(chunk: Buffer): boolean {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back]!;
    if (byte < 0x80) return false;
    if (byte >= 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return back < need;
    }
  }
  return false;
}

export function endsInsideEscape(chunk: Buffer): boolean {
  const from = Math.max(0, chunk.length - ESCAPE_LOOKBACK);
  const esc = chunk.lastIndexOf(ESC, chunk.length - 1);
  if (esc < from) return false;
  const rest = chunk.subarray(esc + 1);
  if (rest.length === 0) return true;
  const kind = rest[0]!;
  if (kind === CSI_INTRODUCER) {
    for (let i = 1; i < rest.length; i++) if (rest[i]! >= CSI_FINAL_MIN && rest[i]! <= CSI_FINAL_MAX) return false;
    return true;
  }
  // A string ends at BEL or at ST, whose ESC would be the last one found above.
  if (STRING_INTRODUCERS.includes(kind)) return rest.indexOf(BEL) === -1;
  return false;
}
