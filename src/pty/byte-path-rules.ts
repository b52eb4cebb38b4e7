/**
 * The rules of the byte path, defined once. Both byte paths follow them: the Node proxy imports
 * this module; the native relay (native/relay.c) includes native/byte-path-rules.h, which is
 * generated from this file (`npm run gen:relay-rules`; test/pty/byte-path-rules.test.ts fails when
 * the two differ), and ccc passes the timing to it as arguments. The screen mirror's recognizer
 * (src/observer/vt-boundary.ts) takes its sequence bytes from here too.
 */

export const ESC = 0x1b;
export const BEL = 0x07;
/** CAN and SUB end any sequence in progress (a terminal drops what was open). */
export const CAN = 0x18;
export const SUB = 0x1a;
/** `ESC [` opens a control sequence (CSI), which ends at its final byte. */
export const CSI_INTRODUCER = 0x5b;
export const CSI_FINAL_MIN = 0x40;
export const CSI_FINAL_MAX = 0x7e;
/**
 * `ESC ]` (OSC), `ESC P` (DCS), `ESC X` (SOS), `ESC ^` (PM), `ESC _` (APC) open a string that ends
 * at BEL or ST (`ESC \`). The 8-bit ST (0x9c) is not a terminator here: in the UTF-8 that claude
 * writes it is a continuation byte ("✓" is e2 9c 93), and xterm ignores 8-bit controls in UTF-8 mode.
 */
export const STRING_INTRODUCERS: readonly number[] = [0x5d, 0x50, 0x58, 0x5e, 0x5f];
/** The second byte of ST (`ESC \`). */
export const STRING_TERMINATOR_FINAL = 0x5c;

/**
 * Where a sequence is open, as a state machine over bytes: `VT_NEXT[state * 256 + byte]` is the
 * next state, and ccc's own bytes may go only where the state is VT_GROUND (outside any escape
 * sequence, between UTF-8 characters). Both proxies and the screen mirror run this one table; the
 * relay gets it in its generated header. A VT500-style recognizer that only tracks whether a
 * sequence is open, not what it means. ESC leads to VT_ESCAPE from every state (a new sequence
 * starts; inside a string it may be ST, which then closes it just the same), so a chunk can be read
 * from its last ESC on.
 */
export const VT_GROUND = 0;
/** 1..3: inside a UTF-8 character, with that many continuation bytes still due. */
const VT_UTF8 = 0;
export const VT_ESCAPE = 4;
const VT_ESCAPE_INTERMEDIATE = 5;
const VT_CSI = 6;
/** OSC, DCS, SOS, PM, APC: open until BEL or ST. */
const VT_STRING = 7;
export const VT_STATES = 8;

function vtNext(state: number, byte: number): number {
  if (byte === CAN || byte === SUB) return VT_GROUND;
  if (byte === ESC) return VT_ESCAPE;
  switch (state) {
    case VT_GROUND:
      if (byte >= 0xc2 && byte <= 0xf4) return VT_UTF8 + (byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1);
      return VT_GROUND;
    case VT_UTF8 + 1:
    case VT_UTF8 + 2:
    case VT_UTF8 + 3:
      // A broken character: a terminal gives up on it and this byte starts afresh.
      if (byte < 0x80 || byte > 0xbf) return vtNext(VT_GROUND, byte);
      return state - 1;
    case VT_ESCAPE:
      if (byte === CSI_INTRODUCER) return VT_CSI;
      if (STRING_INTRODUCERS.includes(byte)) return VT_STRING;
      if (byte >= 0x20 && byte <= 0x2f) return VT_ESCAPE_INTERMEDIATE;
      if (byte >= 0x30 && byte <= 0x7e) return VT_GROUND; // STRING_TERMINATOR_FINAL among them
      return VT_ESCAPE; // C0 controls inside an escape are executed and leave it open
    case VT_ESCAPE_INTERMEDIATE:
      return byte >= 0x30 && byte <= 0x7e ? VT_GROUND : VT_ESCAPE_INTERMEDIATE;
    case VT_CSI:
      return byte >= CSI_FINAL_MIN && byte <= CSI_FINAL_MAX ? VT_GROUND : VT_CSI;
    case VT_STRING:
      return byte === BEL ? VT_GROUND : VT_STRING;
    default:
      throw new Error(`no such sequence state: ${state}`);
  }
}

/** The table of `vtNext`, built once. */
export const VT_NEXT: Uint8Array = (() => {
  const table = new Uint8Array(VT_STATES * 256);
  for (let state = 0; state < VT_STATES; state++) for (let byte = 0; byte < 256; byte++) table[state * 256 + byte] = vtNext(state, byte);
  return table;
})();

/** What `ESC [ ? 1049 h` (enter the alternate screen) and `… l` (leave it) share. */
export const ALT_SCREEN_PREFIX = '\x1b[?1049';
export const ALT_SCREEN_ENTER = 0x68; // h
export const ALT_SCREEN_LEAVE = 0x6c; // l
export const ALT_SCREEN_EXIT = `${ALT_SCREEN_PREFIX}l`;
/** Written when a stopped session continues, if the alternate screen was left for the shell at the stop. */
export const ALT_SCREEN_REENTER = `${ALT_SCREEN_PREFIX}h`;
/**
 * Switched off when the session ends, whatever the agent left on: bracketed paste, focus events,
 * mouse reporting (all encodings); and the cursor shown.
 */
export const MODE_RESETS = '\x1b[?2004l\x1b[?1004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?25h';

export interface BytePathTiming {
  /** An injection waiting for a sequence to end is written once the agent has been quiet this long. */
  injectIdleMs: number;
  /** After the agent exited, its last output is drained until it has been quiet this long… */
  drainQuietMs: number;
  /** …but no longer than this. */
  drainMaxMs: number;
  /**
   * When a stopped session continues, the agent's pty is one column narrower for this long, then
   * back: a size change makes any TUI redraw (a bare SIGWINCH does not: Node's 'resize' fires only
   * when the size differs), and the agent must see the odd size before the real one, as tmux does.
   */
  redrawNudgeMs: number;
}

export const TIMING: Readonly<BytePathTiming> = { injectIdleMs: 100, drainQuietMs: 50, drainMaxMs: 1000, redrawNudgeMs: 150 };
