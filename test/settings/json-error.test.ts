import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonError, firstErrorOffset } from '../../src/settings/json-error.js';

const describeText = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonError(text, error as Error);
  }
  throw new Error('parsed');
};

describe('locating a JSON syntax error for the user', () => {
  it.each([
    ['{\n  "model": "opus",\n  "hooks": { "Stop": [ }\n}\n', /^line 3, column 24: Unexpected token '}'$/],
    ['{\n  "a": 1,\n}', /^line 3, column 1: /],
    ['{"a": tru}', /^line 1, column 10: /],
    ['{"a": 1', /^line 1, column 8: /],
    ['{"a": "x\ny"}', /^line 1, column 9: /],
    ['{} extra', /^line 1, column 4: /],
  ])('%j', (text, expected) => {
    expect(describeText(text)).toMatch(expected);
  });

  it('agrees with JSON.parse on what is valid', () => {
    const validity = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    const jsonish = fc.oneof(
      fc.json(),
      fc.json().chain((t) => fc.nat(Math.max(0, t.length - 1)).map((cut) => t.slice(0, cut))),
      fc
        .json()
        .chain((t) =>
          fc.tuple(fc.nat(t.length), fc.constantFrom('}', ']', ',', ':', '"', '\\', 'x', '\n', '0')).map(([at, ch]) => t.slice(0, at) + ch + t.slice(at)),
        ),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        expect(firstErrorOffset(text) === undefined).toBe(validity(text));
      }),
      { numRuns: 2000 },
    );
  });
});
