/** Joins per source address: a burst, then a steady rate, each source on its own. */
import { describe, expect, it } from 'vitest';
import { joinRate } from '../../src/observer/join-rate.js';

describe('joinRate', () => {
  it('lets a burst in at once, then one join per 1/rate seconds', () => {
    let now = 0;
    const rate = joinRate({ perSecond: 10, burst: 3, now: () => now });
    expect([1, 2, 3, 4].map(() => rate.take('127.0.0.1'))).toEqual([true, true, true, false]);
    now += 50;
    expect(rate.take('127.0.0.1')).toBe(false);
    now += 50; // 100 ms: one join's worth
    expect(rate.take('127.0.0.1')).toBe(true);
    expect(rate.take('127.0.0.1')).toBe(false);
    now += 10_000; // refilled, never past the burst
    expect([1, 2, 3, 4].map(() => rate.take('127.0.0.1'))).toEqual([true, true, true, false]);
  });

  it('counts each source on its own', () => {
    const rate = joinRate({ perSecond: 1, burst: 1, now: () => 0 });
    expect(rate.take('10.0.0.1')).toBe(true);
    expect(rate.take('10.0.0.1')).toBe(false);
    expect(rate.take('10.0.0.2')).toBe(true);
    expect(rate.take(undefined)).toBe(true);
    expect(rate.take(undefined)).toBe(false);
  });

  it('a source past its rate that keeps trying gains nothing by it', () => {
    let now = 0;
    const rate = joinRate({ perSecond: 10, burst: 1, now: () => now });
    let admitted = 0;
    // 2000 tries a second for a second: the rate's 10 (and the burst's 1) get in.
    for (let i = 0; i < 2000; i++) {
      if (rate.take('127.0.0.1')) admitted++;
      now += 0.5;
    }
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(11);
  });
});
