/** The terminal's replies to queries are taken out of the typed input; keys and pastes pass unchanged, however the input is split. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalReplyFilter } from '../../src/input/terminal-replies.js';

const REPLIES = [
  '\x1b[?1;2c', // DA1
  '\x1b[?62;22c',
  '\x1b[>0;276;0c', // DA2
  '\x1b[12;40R', // cursor position
  '\x1b[0n', // status
  '\x1b[?2026;2$y', // mode report
  '\x1b[?1u', // keyboard protocol flags
  '\x1b]11;rgb:1e1e/1e1e/1e1e\x07', // background colour, BEL
  '\x1b]10;rgb:ffff/ffff/ffff\x1b\\', // foreground colour, ST
  '\x1bP1+r544e=787465726d\x1b\\', // XTGETTCAP
  '\x1b_Gi=31;OK\x1b\\', // kitty graphics
];
const KEYS = ['a', 'é', '\r', '\x7f', '\x1b', '\x1bx', '\x1b[A', '\x1b[1;5C', '\x1b[15~', '\x1b[1;2R', '\x1bOP', '\x1b[200~pasted\x1b[201~', '\x1b[Z'];

function filterAll(chunks: Buffer[]): string {
  const filter = new TerminalReplyFilter();
  const out = chunks.map((chunk) => filter.filter(chunk));
  out.push(filter.drain());
  return Buffer.concat(out).toString('utf8');
}

describe('terminal replies in typed input', () => {
  it('takes out every kind of reply and keeps every key around them', () => {
    for (const reply of REPLIES) expect(filterAll([Buffer.from(`ab${reply}cd`)]), JSON.stringify(reply)).toBe('abcd');
    for (const key of KEYS) expect(filterAll([Buffer.from(`<${key}>`)]), JSON.stringify(key)).toBe(`<${key}>`);
  });

  it('a reply split across reads is still taken out; a lone Escape at the end of a read goes out at once', () => {
    const filter = new TerminalReplyFilter();
    expect(filter.filter(Buffer.from('x\x1b]11;rgb:1e1e/')).toString()).toBe('x');
    expect(filter.filter(Buffer.from('1e1e/1e1e\x07y')).toString()).toBe('y');
    expect(filter.filter(Buffer.from('z\x1b')).toString()).toBe('z\x1b');
  });

  it('whatever the input and however it is split (except right after an ESC): the same result, and text without replies unchanged (fuzzed)', () => {
    const piece = fc.oneof(fc.constantFrom(...REPLIES), fc.constantFrom(...KEYS), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const whole = Buffer.from(pieces.join(''));
        // Not right after an ESC: a read that ends in a lone ESC is the Escape key, by design.
        const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].filter((c) => whole[c - 1] !== 0x1b).sort((a, b) => a - b);
        const chunks = [0, ...at].map((start, i) => whole.subarray(start, [...at, whole.length][i]));
        const once = filterAll([whole]);
        expect(filterAll(chunks)).toBe(once);
        const keysOnly = pieces.filter((p) => !REPLIES.includes(p) && !p.includes('\x1b'));
        expect(filterAll([Buffer.from(keysOnly.join(''))])).toBe(keysOnly.join(''));
      }),
    );
  });
});
