/** The one stripper for model text on its way to a terminal (titles, progress, observe's event lines). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertLine, inertText } from '../../src/pty/inert-text.js';

describe('inert text', () => {
  it('turns every C0, DEL and C1 control into a space, character for character', () => {
    expect(inertText('a\x1b]52;c;eA==\x07b\x9b31mc\x7fd\te\nf\rg')).toBe('a ]52;c;eA== b 31mc d\te\nf g');
    expect(inertLine('one\ntwo\tthree')).toBe('one two three');
  });

  it('leaves no control but newline and tab, and keeps the length (a property over any text)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = inertText(text);
        expect(out).toHaveLength(text.length);
        expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
        expect(inertLine(text)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
      }),
    );
  });
});
