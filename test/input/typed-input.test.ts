/** Typed input derived once: a reply's pieces are never typing; what is held becomes typing once the input is quiet, or ends. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUIET_MS, TypedInput } from '../../src/input/typed-input.js';

describe('typed input', () => {
  let typed: string[];
  let input: TypedInput;
  beforeEach(() => {
    vi.useFakeTimers();
    typed = [];
    input = new TypedInput((bytes) => typed.push(bytes.toString('latin1')));
  });
  afterEach(() => vi.useRealTimers());

  it('a cursor report cut at any byte into two reads is not typing, however long the wait after it; keys around it are', () => {
    const report = Buffer.from('\x1b[12;40R');
    for (let at = 1; at < report.length; at++) {
      typed = [];
      input.push(Buffer.concat([Buffer.from('a'), report.subarray(0, at)]));
      vi.advanceTimersByTime(QUIET_MS / 10);
      input.push(report.subarray(at));
      vi.advanceTimersByTime(10 * QUIET_MS);
      input.push(Buffer.from('b'));
      expect(typed.join(''), `cut at ${at}: ${JSON.stringify(report.subarray(0, at).toString())}`).toBe('ab');
    }
  });

  it('the pieces of a reply within the quiet time are one reply; a lone ESC left alone is the Escape key', () => {
    input.push(Buffer.from('a\x1b'));
    vi.advanceTimersByTime(QUIET_MS - 1);
    input.push(Buffer.from(']11;rgb:0/0/0\x07'));
    expect(typed).toEqual(['a']);
    input.push(Buffer.from('\x1b'));
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(typed).toEqual(['a']);
    vi.advanceTimersByTime(1);
    vi.advanceTimersToNextTimer(); // the check after ccc read its input once more
    expect(typed).toEqual(['a', '\x1b']);
  });

  it("a ccc stalled past the quiet time reads the reply's rest before it judges: still no typing", () => {
    input.push(Buffer.from('a\x1b[12;'));
    // The timer fired late, the rest of the reply was already waiting: it is read before the check runs.
    vi.advanceTimersByTime(QUIET_MS);
    input.push(Buffer.from('40R'));
    vi.advanceTimersByTime(10 * QUIET_MS);
    expect(typed).toEqual(['a']);
  });

  it('what is held when the input ends is typed', () => {
    input.push(Buffer.from('\x1b[1'));
    input.end();
    expect(typed).toEqual(['\x1b[1']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
