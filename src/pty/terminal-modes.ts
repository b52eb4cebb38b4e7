/**
 * What a TUI may leave switched on in the user's terminal, and where ccc's own bytes may go, by
 * the rules in byte-path-rules.ts (native/relay.c follows the same rules in C).
 * Only the alternate screen needs tracking: leaving it when it was never entered would restore a
 * cursor position that was never saved.
 */
import { ALT_SCREEN_ENTER, ALT_SCREEN_EXIT, ALT_SCREEN_LEAVE, ALT_SCREEN_PREFIX, ESC, MODE_RESETS, VT_GROUND, VT_NEXT } from './byte-path-rules.js';

const ALT_SCREEN = Buffer.from(ALT_SCREEN_PREFIX);

export class AltScreenTracker {
  active = false;
  /** The end of the previous chunk: an enter or leave may be split across reads. */
  private carry = Buffer.alloc(0);

  /**
   * The last enter or leave decides. One backward search for the shared prefix costs a fraction
   * of searching for both sequences (see bench/RESULTS.md, "Alternate-screen tracking: one search
   * per chunk"), and this runs on every chunk of the byte path; a sequence split across chunks is
   * found in the previous chunk's last bytes joined to this one's first, looked at only when those
   * last bytes hold an ESC.
   */
  observe(chunk: Buffer): void {
    const inChunk = lastSwitch(chunk);
    if (inChunk !== undefined) this.active = inChunk;
    else if (this.carry.includes(ESC)) {
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
 * Whether the output so far ends inside an escape sequence or a UTF-8 character, where ccc's own
 * bytes (a title update) would corrupt the agent's, by the table in byte-path-rules.ts. Exact
 * across reads, yet it reads little of a chunk: from its last ESC (every state goes to VT_ESCAPE
 * there), or, with no ESC and nothing open, its last four bytes (a UTF-8 character at most).
 */
export class SequenceTracker {
  private state = VT_GROUND;

  get atBoundary(): boolean {
    return this.state === VT_GROUND;
  }

  feed(chunk: Uint8Array): void {
    const esc = chunk.lastIndexOf(ESC);
    let from = 0;
    if (esc !== -1) {
      this.state = VT_GROUND;
      from = esc;
    } else if (this.state === VT_GROUND) from = Math.max(0, chunk.length - 4);
    let state = this.state;
    for (let i = from; i < chunk.length; i++) state = VT_NEXT[state * 256 + chunk[i]!]!;
    this.state = state;
  }
}
