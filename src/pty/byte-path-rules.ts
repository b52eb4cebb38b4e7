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
/** How far back from the end of a chunk an open sequence is looked for (longer ones count as closed). */
export const ESCAPE_LOOKBACK = 256;

/** What `ESC [ ? 1049 h` (enter the alternate screen) and `… l` (leave it) share. */
export const ALT_SCREEN_PREFIX = '\x1b[?1049';
export const ALT_SCREEN_ENTER = 0x68; // h
export const ALT_SCREEN_LEAVE = 0x6c; // l
export const ALT_SCREEN_EXIT = `${ALT_SCREEN_PREFIX}l`;
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
}

export const TIMING: Readonly<BytePathTiming> = { injectIdleMs: 100, drainQuietMs: 50, drainMaxMs: 1000 };
