/**
 * claude writing a turn while the stop already waits for it, at a point of the wait and not at a
 * time: transcript readings whose reader of the file runs `flush` right before the stop's second
 * look. However slow the machine, the stop has looked once and found the turn missing, and finds it
 * at the next look.
 */
import { createNullLogger } from '../../src/log/memory-logger.js';
import { InMemoryReadings } from '../../src/loop/transcript-readings.js';

export function flushedAfterFirstLook(sessionId: string, file: string, flush: () => void): { readings: InMemoryReadings; looks: () => number } {
  const readings = new InMemoryReadings(createNullLogger());
  const reader = readings.follow(sessionId, file);
  const readOn = reader.readOn.bind(reader);
  let looks = 0;
  reader.readOn = () => {
    looks += 1;
    if (looks === 2) flush();
    return readOn();
  };
  return { readings, looks: () => looks };
}
