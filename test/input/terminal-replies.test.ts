/** The terminal's replies to queries are taken out of the typed input; keys and pastes pass unchanged, however the input is split. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalReplyFilter } from '../../src/input/terminal-replies.js';

/** Every kind of reply a terminal sends on the input, by name. */
const REPLY_KINDS: Record<string, string> = {
  'device attributes (DA1)': '\x1b[?1;2c',
  'device attributes (DA1, VT220)': '\x1b[?62;22c',
  'device attributes (DA2)': '\x1b[>0;276;0c',
  'cursor position': '\x1b[12;40R',
  'status report': '\x1b[0n',
  'focus in': '\x1b[I',
  'focus out': '\x1b[O',
  'mode report': '\x1b[?2026;2$y',
  'keyboard protocol flags': '\x1b[?1u',
  'background colour (OSC, BEL)': '\x1b]11;rgb:1e1e/1e1e/1e1e\x07',
  'foreground colour (OSC, ST)': '\x1b]10;rgb:ffff/ffff/ffff\x1b\\',
  'terminal capability (DCS)': '\x1bP1+r544e=787465726d\x1b\\',
  'kitty graphics (APC)': '\x1b_Gi=31;OK\x1b\\',
};
const REPLIES = Object.values(REPLY_KINDS);
const PASTE = '\x1b[200~pasted \x1b[12;40R and \x1b[I as text\x1b[201~';
const KEYS = [
  'a',
  'é',
  '\r',
  '\x7f',
  '\x1b',
  '\x1bx',
  '\x1b[A',
  '\x1b[1;5C',
  '\x1b[15~',
  '\x1b[1;2R',
  '\x1bOP',
  '\x1bOI',
  '\x1b[200~pasted\x1b[201~',
  PASTE,
  '\x1b[Z',
];

function filterAll(chunks: Buffer[]): string {
  const filter = new TerminalReplyFilter();
  const out = chunks.map((chunk) => filter.filter(chunk));
  out.push(filter.drain());
  return Buffer.concat(out).toString('utf8');
}

/** `whole` cut at each of `at` (byte offsets). */
function cut(whole: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((start, i) => whole.subarray(start, [...points, whole.length][i]));
}

describe('terminal replies in typed input', () => {
  it('takes out every kind of reply and keeps every key around them', () => {
    for (const [kind, reply] of Object.entries(REPLY_KINDS)) expect(filterAll([Buffer.from(`ab${reply}cd`)]), kind).toBe('abcd');
    for (const key of KEYS) expect(filterAll([Buffer.from(`<${key}>`)]), JSON.stringify(key)).toBe(`<${key}>`);
  });

  it('a reply split at any byte, into two reads, is still taken out, and nothing of it is typing until it ends', () => {
    for (const [kind, reply] of Object.entries(REPLY_KINDS)) {
      const bytes = Buffer.from(reply);
      for (let at = 1; at < bytes.length; at++) {
        const filter = new TerminalReplyFilter();
        expect(filter.filter(Buffer.concat([Buffer.from('x'), bytes.subarray(0, at)])).toString(), `${kind} cut at ${at}`).toBe('x');
        expect(filter.filter(Buffer.concat([bytes.subarray(at), Buffer.from('y')])).toString(), `${kind} cut at ${at}`).toBe('y');
        expect(filter.drain().length).toBe(0);
      }
    }
  });

  it("a bracketed paste cut at any byte is kept whole, markers included, the replies' look-alikes inside it too", () => {
    const bytes = Buffer.from(PASTE);
    for (let at = 1; at < bytes.length; at++) {
      for (let second = at; second < bytes.length; second += 7) {
        expect(filterAll(cut(bytes, [at, second])), `cut at ${at}, ${second}`).toBe(PASTE);
      }
    }
    // A reply after the paste is a reply again.
    expect(filterAll([Buffer.from(`${PASTE}\x1b[I!`)])).toBe(`${PASTE}!`);
  });

  it('a lone ESC at the end of a read is held: the rest of a reply may follow; drained, it is the Escape key', () => {
    const filter = new TerminalReplyFilter();
    expect(filter.filter(Buffer.from('z\x1b')).toString()).toBe('z');
    expect(filter.holding).toBe(true);
    expect(filter.filter(Buffer.from('[12;40R')).toString()).toBe('');
    expect(filter.filter(Buffer.from('\x1b')).toString()).toBe('');
    expect(filter.drain().toString()).toBe('\x1b');
    expect(filter.holding).toBe(false);
  });

  it('whatever the input and wherever it is split: the same result, replies out, and text without replies unchanged (fuzzed)', () => {
    const piece = fc.oneof(fc.constantFrom(...REPLIES), fc.constantFrom(...KEYS), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const whole = Buffer.from(pieces.join(''));
        const once = filterAll([whole]);
        expect(filterAll(cut(whole, cuts))).toBe(once);
        const keysOnly = pieces.filter((p) => !REPLIES.includes(p) && !p.includes('\x1b'));
        expect(filterAll([Buffer.from(keysOnly.join(''))])).toBe(keysOnly.join(''));
      }),
    );
  });

  it('keys and replies in any order, split anywhere: exactly the keys come out (fuzzed)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...REPLIES).map((r) => ({ r })),
            fc.constantFrom('a', 'é', '\r', '\x1b[A', '\x1b[15~', PASTE).map((k) => ({ k })),
          ),
          { maxLength: 12 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (items, cuts) => {
          const whole = Buffer.from(items.map((i) => ('r' in i ? i.r : i.k)).join(''));
          const keys = items.map((i) => ('k' in i ? i.k : '')).join('');
          expect(filterAll(cut(whole, cuts))).toBe(keys);
        },
      ),
    );
  });
});
