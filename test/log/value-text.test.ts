import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip, jsonText, kindOf } from '../../src/value-text.js';

describe('value text for messages and log lines', () => {
  it('shows JSON, and String() where JSON has none or fails', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect([jsonText({ a: [1] }), jsonText('x'), jsonText(undefined), jsonText(() => 1), jsonText(cycle), jsonText(1n)]).toEqual([
      '{"a":[1]}',
      '"x"',
      'undefined',
      '() => 1',
      '[object Object]',
      '1',
    ]);
  });

  it('clips to at most max characters, the mark included', () => {
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdefg', 6)).toBe('abcde…');
    expect(clip('abcdefg', 6, '...')).toBe('abc...');
    fc.assert(fc.property(fc.string(), fc.integer({ min: 3, max: 50 }), (text, max) => clip(text, max, '...').length <= max));
  });

  it('names a kind for "expected …, got …"', () => {
    expect([null, undefined, [1], () => 1, {}, 42, 'x'].map((v) => kindOf(v))).toEqual([
      'null',
      'undefined',
      'an array',
      'a function',
      'an object',
      'number 42',
      'string "x"',
    ]);
    expect(kindOf(new Map(), 'a non-plain object')).toBe('a non-plain object');
  });
});
