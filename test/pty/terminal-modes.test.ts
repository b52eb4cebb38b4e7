import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AltScreenTracker, endsInsideEscape, endsInsideUtf8, resetSequence, safeToInjectAfter } from '../../src/pty/terminal-modes.js';

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

  it('knows when a chunk ends inside an escape or UTF-8 sequence', () => {
    expect(endsInsideEscape(Buffer.from('abc\x1b[31'))).toBe(true);
    expect(endsInsideEscape(Buffer.from('abc\x1b[31m'))).toBe(false);
    expect(endsInsideEscape(Buffer.from('\x1b]0;title'))).toBe(true);
    expect(endsInsideEscape(Buffer.from('\x1b]0;title\x07'))).toBe(false);
    expect(endsInsideEscape(Buffer.from('\x1b]0;title\x1b\\'))).toBe(false);
    expect(endsInsideEscape(Buffer.from('x\x1b'))).toBe(true);
    const snow = Buffer.from('☃');
    expect(endsInsideUtf8(snow.subarray(0, 2))).toBe(true);
    expect(endsInsideUtf8(snow)).toBe(false);
    expect(safeToInjectAfter(undefined)).toBe(true);
  });

  it('a complete chunk of text and finished sequences is always safe', () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('\x1b[0m', '\x1b[?25l', '\x1b]0;t\x07', '\x1b[38;5;12m'));
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const text = pieces.join('').replace(/\x1b/g, '');
        expect(safeToInjectAfter(Buffer.from(text + pieces.filter((p) => p.startsWith('\x1b')).join('')))).toBe(true);
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

  it('an OSC string holding a UTF-8 character with the byte 0x9c is still open (0x9c is no terminator)', () => {
    expect(endsInsideEscape(Buffer.from('\x1b]0;done ✓'))).toBe(true);
    expect(endsInsideEscape(Buffer.from('\x1bXsos string'))).toBe(true);
  });
});
