/**
 * Model text in a Markdown table cell, rendered by a real CommonMark + GFM-tables parser
 * (markdown-it, raw HTML allowed as on GitHub): one row, the same cells, no HTML, no link, image,
 * code or emphasis, and the cell reads as the text itself.
 */
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownText } from '../../../src/reporters/ci/markdown-text.js';

const md = new MarkdownIt({ html: true });

/** The inline tokens of each cell of the table's body rows. */
function tableCells(markdown: string) {
  const tokens = md.parse(markdown, {});
  const rows: Array<Array<{ text: string; kinds: string[] }>> = [];
  let inBody = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'tbody_open') inBody = true;
    if (t.type === 'tbody_close') inBody = false;
    if (inBody && t.type === 'tr_open') rows.push([]);
    if (inBody && t.type === 'inline') {
      const children = t.children ?? [];
      rows[rows.length - 1]!.push({ text: children.map((c) => c.content).join(''), kinds: children.map((c) => c.type) });
    }
  }
  return { rows, tokens };
}

const hostile = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc
    .array(
      fc.constantFrom(
        '|',
        '\\|',
        '`',
        '``',
        '<b>',
        '</td>',
        '<script>alert(1)</script>',
        '<!--',
        '&lt;',
        '&amp;',
        '[x](http://e.example)',
        '![i](http://e.example/p.png)',
        '**',
        '_',
        '~~',
        '# ',
        '\n',
        '\r\n',
        '\r',
        '\u202e',
        '\x1b[31m',
        '\\',
        ' ',
        'a',
        ':tada:',
        '<http://e.example>',
      ),
    )
    .map((p) => p.join('')),
);

/** What a reader sees: the text on one line, controls and bidirectional overrides as spaces, spaces collapsed. */
function asRead(text: string): string {
  return text
    .replace(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('markdownText', () => {
  it('any text stays one cell of one row, renders as itself and brings no HTML, link, image, code or emphasis', () => {
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        const table = `| A | B | C |\n|---|---|---|\n| ${markdownText(a)} | ${markdownText(b)} | end |\n`;
        const { rows, tokens } = tableCells(table);
        expect(rows).toHaveLength(1);
        expect(rows[0]!.map((c) => c.text)).toEqual([asRead(a), asRead(b), 'end']);
        for (const cell of rows[0]!) for (const kind of cell.kinds) expect(kind).toBe('text');
        for (const t of tokens) expect(t.type).not.toMatch(/html|code|link|image|em|strong/);
      }),
      { numRuns: 1000 },
    );
  });

  it('bounds the text by characters, not UTF-16 units', () => {
    expect(markdownText('😀😀😀', 2)).toBe('😀😀…');
    expect(markdownText('<b>x</b> | y', 100)).toBe('&lt;b&gt;x&lt;\\/b&gt; \\| y');
  });
});
