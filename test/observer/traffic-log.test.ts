/** Observers coming and going: a line for the first join and drop, then counts at most once per interval, the rest at close. */
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { trafficLog } from '../../src/observer/traffic-log.js';

describe('the traffic log', () => {
  it('logs the first join at once, then counts joins and leaves into one line per interval and at close', () => {
    const logger = createRecordingLogger();
    let now = 1_000;
    const log = trafficLog(logger, { intervalMs: 60_000, now: () => now });
    log.joined(1);
    for (let i = 0; i < 500; i++) {
      log.joined(2);
      log.left(1);
    }
    log.left(0);
    expect(logger.lines.map((l) => [l.message, l.fields])).toEqual([['observer: joined', { observers: 1 }]]);
    now += 60_000;
    log.joined(1);
    expect(logger.lines.at(-1)).toMatchObject({ message: 'observer: 501 joined, 501 left since the last line', fields: { observers: 1 } });
    log.left(0);
    log.flush(0);
    expect(logger.lines.at(-1)).toMatchObject({ message: 'observer: 0 joined, 1 left since the last line' });
    expect(logger.lines).toHaveLength(3);
  });

  it('logs the first drop with its reason, then the count of drops since, with the last reason', () => {
    const logger = createRecordingLogger();
    let now = 1_000;
    const log = trafficLog(logger, { intervalMs: 60_000, now: () => now });
    for (let i = 0; i < 100; i++) log.dropped(`fell behind ${i}`, 3);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', message: 'observer: dropped', fields: { reason: 'fell behind 0', observers: 3 } })]);
    now += 60_000;
    log.dropped('fell behind again', 2);
    expect(logger.lines.slice(1).map((l) => [l.message, l.fields])).toEqual([
      ['observer: dropped 99 more observers since the last line', { last_reason: 'fell behind 99', observers: 2 }],
      ['observer: dropped', { reason: 'fell behind again', observers: 2 }],
    ]);
    log.flush(0);
    expect(logger.lines).toHaveLength(3);
  });
});
