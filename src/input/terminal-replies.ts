/**
 * The terminal's answers to the agent's queries arrive on the same input as the user's keys:
 * device attributes (`ESC [ ? 1 ; 2 c`, `ESC [ > … c`), cursor and status reports (`ESC [ 12 ; 40 R`,
 * `ESC [ 0 n`), mode reports (`ESC [ ? … $ y`), the keyboard protocol's (`ESC [ ? 1 u`), focus
 * reports (`ESC [ I`, `ESC [ O`: the user looked at the window, and typed nothing), colours
 * (`ESC ] 11 ; rgb:… BEL`) and every other OSC, DCS, APC, PM and SOS string. Nobody types those, so
 * they are taken out. Inside a bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) everything was
 * typed: the paste is kept whole, markers included.
 *
 * The filter is stateful, one per input for its whole life: a sequence split across reads (the
 * terminal wrote it in one piece, the reader got two) is held, bounded, until its end arrives, and
 * a read that ends in a lone ESC is held too, since the next read may begin the rest of a reply.
 * What is held is the caller's to release (`drain`) once the input has been quiet long enough for
 * it to be the Escape key or a key sequence of its own (typed-input.ts). Anything that is not a
 * reply passes through unchanged, in order, and the result does not depend on where the reads split.
 */

const ESC = 0x1b;
const BEL = 0x07;
/** A reply longer than this is not one: what was held passes through. */
const MAX_HELD = 4096;
const PASTE_END = Buffer.from('\x1b[201~');

type Scan = { kind: 'reply' | 'keep' | 'paste'; end: number } | { kind: 'open' };

export class TerminalReplyFilter {
  private held = Buffer.alloc(0);
  private pasting = false;

  /** The typed input in `chunk` (with what an earlier chunk left open), replies removed. */
  filter(chunk: Buffer): Buffer {
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    const kept: Buffer[] = [];
    let from = 0;
    let at = 0;
    while (at < data.length) {
      if (this.pasting) {
        const end = data.indexOf(PASTE_END, at);
        if (end === -1) return this.hold(kept, data, from, pasteEndStart(data, at));
        this.pasting = false;
        at = end + PASTE_END.length;
        continue;
      }
      const i = data.indexOf(ESC, at);
      if (i === -1) break;
      const scan = scanSequence(data, i);
      if (scan.kind === 'open') {
        // An open sequence waits for its end; one longer than any reply is not one and passes.
        if (data.length - i < MAX_HELD) return this.hold(kept, data, from, i);
        break;
      }
      if (scan.kind === 'reply') {
        kept.push(data.subarray(from, i));
        from = scan.end;
      } else if (scan.kind === 'paste') this.pasting = true;
      at = scan.end;
    }
    kept.push(data.subarray(from));
    return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
  }

  /** Whether an unfinished sequence (or a lone ESC) is held for the next read. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** What is held, as typed: the input went quiet (the Escape key, a lone `ESC [`), or it ended. */
  drain(): Buffer {
    const held = this.held;
    this.held = Buffer.alloc(0);
    return held;
  }

  /** Keeps `data[from, at)`, holds `data[at…]` for the next read. */
  private hold(kept: Buffer[], data: Buffer, from: number, at: number): Buffer {
    kept.push(data.subarray(from, at));
    if (at < data.length) this.held = Buffer.from(data.subarray(at));
    return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
  }
}

/** Where a possible beginning of the paste's end marker starts at the end of `data` (else its length). */
function pasteEndStart(data: Buffer, from: number): number {
  for (let start = Math.max(from, data.length - PASTE_END.length + 1); start < data.length; start++) {
    if (PASTE_END.subarray(0, data.length - start).equals(data.subarray(start))) return start;
  }
  return data.length;
}

/** The sequence at `start` (an ESC): a reply to drop, something to keep, a paste's start, or not finished yet. */
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
  const kind = body === '200' && final === 0x7e ? 'paste' : isReply(body, String.fromCharCode(final)) ? 'reply' : 'keep';
  return { kind, end: j + 1 };
}

/** CSI replies; keys (arrows, F-keys, modified keys, bracketed paste) never match these. */
function isReply(body: string, final: string): boolean {
  if (final === 'c') return /^[?>=][\d;]*$/.test(body); // DA1, DA2, DA3
  if (final === 'R') return /^\d+;\d+$/.test(body) && !/^1;\d+$/.test(body); // CPR; `1;<mod>R` is a modified F3
  if (final === 'n') return /^\??\d+(;\d+)*$/.test(body); // DSR status
  if (final === 'y') return /^\??\d+;\d+\$$/.test(body); // DECRPM
  if (final === 'u') return /^\?\d*$/.test(body); // keyboard protocol flags
  if (final === 'I' || final === 'O') return body === ''; // focus in, focus out
  return false;
}
