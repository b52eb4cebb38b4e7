import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VT_GROUND, VT_NEXT } from '../../src/pty/byte-path-rules.js';
import { AltScreenTracker, resetSequence, SequenceTracker } from '../../src/pty/terminal-modes.js';

describe('terminal modes', () => {
  it('tracks the alternate screen across chunks', () => {
    const t = new AltScreenTracker();
    t.observe(Buffer.from('hello \x1b[?1049h screen'));
    expect(t.active).toBe(true);
    t.observe(Buffer.from('more'));
    expect(t.active).toBe(true);
    t.observe(Buffer.from('\x1b[?1049l bye'));
    expect(t.active).toBe(false);
    expect(resetSequence(false)).not.toContain('1049');
    expect(resetSequence(true)).toContain('\x1b[?1049l');
    expect(resetSequence(false)).toContain('\x1b[?25h');
  });

  const endsInside = (...chunks: string[]) => {
    const tracker = new SequenceTracker();
    for (const chunk of chunks) tracker.feed(Buffer.from(chunk, 'latin1'));
    return !tracker.atBoundary;
  };

  it('knows when the output ends inside an escape sequence or a UTF-8 character', () => {
    expect(endsInside('abc\x1b[31')).toBe(true);
    expect(endsInside('abc\x1b[31m')).toBe(false);
    expect(endsInside('\x1b]0;title')).toBe(true);
    expect(endsInside('\x1b]0;title\x07')).toBe(false);
    expect(endsInside('\x1b]0;title\x1b\\')).toBe(false);
    expect(endsInside('x\x1b')).toBe(true);
    expect(endsInside('\xe2\x98')).toBe(true);
    expect(endsInside('\xe2\x98\x83')).toBe(false);
    expect(endsInside()).toBe(false);
    // A string is open until BEL or ST, however many reads it spans and whatever bytes it holds.
    expect(endsInside('\x1b]0;done ', 'x'.repeat(5000), '\xe2\x9c\x93', 'more')).toBe(true);
    expect(endsInside('\x1b]0;done ', 'x'.repeat(5000), 'end\x07', 'text')).toBe(false);
    expect(endsInside('\x1bXsos string')).toBe(true);
    // CAN ends whatever was open.
    expect(endsInside('\x1b[31', '\x18')).toBe(false);
  });

  it('reading a chunk from its last ESC, or its last four bytes, decides as reading every byte would', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '\x1b[0m',
        '\x1b[',
        '31',
        'm',
        '\x1b]0;t',
        '\x07',
        '\x1b\\',
        '\x1bP',
        '\x1b(',
        'B',
        '\x18',
        '\xe2',
        '\x98',
        '\x83',
        '\xf0\x9f',
        '\x98\x80',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 10 }), { maxLength: 8 }), (chunks) => {
        const tracker = new SequenceTracker();
        let state = VT_GROUND;
        for (const pieces of chunks) {
          const chunk = Buffer.from(pieces.join(''), 'latin1');
          tracker.feed(chunk);
          for (const byte of chunk) state = VT_NEXT[state * 256 + byte]!;
          expect(tracker.atBoundary).toBe(state === VT_GROUND);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a complete chunk of text and finished sequences is always at a boundary', () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('\x1b[0m', '\x1b[?25l', '\x1b]0;t\x07', '\x1b[38;5;12m'));
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const text = pieces.join('').replace(/\x1b/g, '');
        expect(endsInside(Buffer.from(text + pieces.filter((p) => p.startsWith('\x1b')).join('')).toString('latin1'))).toBe(false);
      }),
    );
  });

  it('the alternate screen state is decided by the last enter or leave so far, also one split across chunks', () => {
    // Near misses too: the shared prefix with another final byte, and the sequences' own parts.
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\x1b[?1049h', '\x1b[?1049l', '\x1b[?1049', '\x1b[?1049;', '\x1b[?1047h', '\x1b[?104', '9', 'h', 'l', '\x1b', '\x1b[?10'),
    );
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 12 }), { maxLength: 6 }), (chunks) => {
        const tracker = new AltScreenTracker();
        let seen = '';
        for (const pieces of chunks) {
          const chunk = pieces.join('');
          seen += chunk;
          tracker.observe(Buffer.from(chunk));
          const enter = seen.lastIndexOf('\x1b[?1049h');
          const leave = seen.lastIndexOf('\x1b[?1049l');
          expect(tracker.active).toBe(enter > leave);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
