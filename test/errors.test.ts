/**
 * src/errors.ts: `errorText` says what went wrong for anything a `catch` can receive.
 */
import { describe, expect, it } from 'vitest';
import { CccError, errorText } from '../src/errors.js';

describe('errorText', () => {
  it("gives an Error's message, a CccError's too", () => {
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText(new CccError('USAGE', 'bad flag'))).toBe('bad flag');
  });

  it('gives any other thrown value as text', () => {
    expect(errorText('plain string')).toBe('plain string');
    expect(errorText(42)).toBe('42');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(null)).toBe('null');
    expect(errorText({ toString: () => 'custom' })).toBe('custom');
  });
});
