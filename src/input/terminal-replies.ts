/**
 * The terminal's answers to the agent's queries arrive on the same input as the user's keys:
 * device attributes (`ESC [ ? 1 ; 2 c`, `ESC [ > … c`), cursor and status reports (`ESC [ 12 ; 40 R`,
 * `ESC [ 0 n`), mode reports (`ESC [ ? … $ y`), the keyboard protocol's (`ESC [ ? 1 u`), colours
 * (`ESC ] 11 ; rgb:… BEL`) and every other OSC, DCS, APC, PM and SOS string. Nobody types those; the
 * input log keeps what was typed, so they are taken out. A sequence split across reads is held
 * (bounded) until its end arrives; anything that is not a reply passes through unchanged, in order.
 */

const ESC = 0x1b;
const BEL = 0x07;
/** A reply longer than this is not one: what was held passes through. */
const MAX_HELD = 4096;

type Scan = { kind: 'reply' | 'keep'; end: number } | { kind: 'open' };

export class TerminalReplyFilter {
  private held = Buffer.alloc(0);

  /** The typed input in `chunk` (with what an earlier chunk left open), replies removed. */
  filter(chunk: Buffer): Buffer {
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    const kept: Buffer[] = [];
    let from = 0;
    let i = data.indexOf(ESC);
    while (i !== -1) {
      const scan = scanSequence(data, i);
      if (scan.kind === 'open') {
        // A lone ESC at the end of a read is the Escape key; an open sequence waits for its end.
        if (data.length - i > 1 && data.length - i < MAX_HELD) {
          kept.push(data.subarray(from, i));
          this.held = Buffer.from(data.subarray(i));
          return Buffer.concat(kept);
        }
        break;
      }
      if (scan.kind === 'reply') {
        kept.push(data.subarray(from, i));
        from = scan.end;
      }
      i = data.indexOf(ESC, scan.end);
    }
    kept.push(data.subarray(from));
    return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
  }

  /** What is still held (an unfinished sequence at the end of the session), as typed. */
  drain(): Buffer {
    const held = this.held;
    this.held = Buffer.alloc(0);
    return held;
  }
}

/** The sequence at `start` (an ESC): a reply to drop, something to keep, or not finished yet. */
function scanSequence(data: Buffer, start: number): Scan {
  const introducer = data[start + 1];
  if (introducer === undefined) return { kind: 'open' };
  // OSC, DCS, SOS, PM, APC: strings a keyboard never sends, ended by BEL (OSC) or ST (ESC \).
  if (introducer === 0x5d || introducer === 0x50 || introducer === 0x58 || introducer === 0x5e || introducer === 0x5f) {
    for (let j = start + 2; j < data.length; j++) {
      if (data[j] === BEL && introducer === 0x5d) return { kind: 'reply', end: j + 1 };
      if (data[j] === ESC) {
        if (j + 1 >= data.length) return { kind: 'open' };
        if (data[j + 1] === 0x5c) return { kind: 'reply', end: j + 2 };
        return { kind: 'keep', end: start + 1 }; // not a string after all
      }
    }
    return { kind: 'open' };
  }
  if (introducer !== 0x5b) return { kind: 'keep', end: start + 1 };
  let j = start + 2;
  while (j < data.length && data[j]! >= 0x20 && data[j]! <= 0x3f) j++;
  if (j >= data.length) return { kind: 'open' };
  const final = data[j]!;
  if (final < 0x40 || final > 0x7e) return { kind: 'keep', end: start + 1 };
  const body = data.subarray(start + 2, j).toString('latin1');
  return { kind: isReply(body, String.fromCharCode(final)) ? 'reply' : 'keep', end: j + 1 };
}

/** CSI replies; keys (arrows, F-keys, modified keys, bracketed paste) never match these. */
function isReply(body: string, final: string): boolean {
  if (final === 'c') return /^[?>=][\d;]*$/.test(body); // DA1, DA2, DA3
  if (final === 'R') return /^\d+;\d+$/.test(body) && !/^1;\d+$/.test(body); // CPR; `1;<mod>R` is a modified F3
  if (final === 'n') return /^\??\d+(;\d+)*$/.test(body); // DSR status
  if (final === 'y') return /^\??\d+;\d+\$$/.test(body); // DECRPM
  if (final === 'u') return /^\?\d*$/.test(body); // keyboard protocol flags
  return false;
}
