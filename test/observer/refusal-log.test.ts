/** Wrong-token refusals: one log line at once, then at most one per interval with the count, the rest at close. */
import { describe, expect, it } from 'vitest';
import { refusalLog } from '../../src/observer/refusal-log.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';

describe('the refusal log', () => {
  it('logs the first refusal, counts the next ones within the interval, tells the count with the next line and at close', () => {
    const logger = createRecordingLogger();
    let now = 1_000;
    const log = refusalLog(logger, { intervalMs: 60_000, now: () => now });
    for (let i = 0; i < 1000; i++) log.refused('10.0.0.1');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: 'warn', message: 'observer: refused a connection without the right token', fields: { remote: '10.0.0.1' } });
    now += 60_000;
    log.refused('10.0.0.2');
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[1]!.fields).toEqual({ remote: '10.0.0.2', more_refused_since_last_line: 999 });
    log.refused('10.0.0.3');
    log.refused('10.0.0.3');
    log.flush();
    expect(logger.lines).toHaveLength(3);
    expect(logger.lines[2]).toMatchObject({ message: 'observer: refused 2 more connections without the right token' });
    log.flush();
    expect(logger.lines).toHaveLength(3);
  });
});
