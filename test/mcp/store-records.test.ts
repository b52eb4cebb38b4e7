/** The store's line format: every record comes back as written, and no input makes reading throw. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeRecord, foldRecords, parseRecord, type StoreRecord } from '../../src/mcp/storage/store-records.js';

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const record: fc.Arbitrary<StoreRecord> = fc.oneof(
  fc.record({ type: fc.constant('question' as const), id: text, question: text, askedAt: text, timeoutSeconds: fc.integer() }),
  fc.record(
    {
      type: fc.constant('outcome' as const),
      id: text,
      outcome: fc.constantFrom('answered' as const, 'no_answer' as const, 'cancelled' as const),
      answer: text,
      via: text,
      at: text,
    },
    { requiredKeys: ['type', 'id', 'outcome', 'at'] },
  ),
  fc.record({
    type: fc.constant('restart' as const),
    runId: text,
    at: text,
    reason: text,
    trigger: text,
    previousPid: fc.option(fc.integer(), { nil: null }),
    newPid: fc.option(fc.integer(), { nil: null }),
    outcome: text,
  }),
);

describe('store records', () => {
  it('a record is one line that parses back to itself, whatever its text holds', () => {
    fc.assert(
      fc.property(record, (r) => {
        const line = encodeRecord(r);
        expect(line.indexOf('\n')).toBe(line.length - 1);
        expect(parseRecord(line.slice(0, -1))).toEqual(r);
      }),
    );
  });

  it('reading never throws, and every line that is not a record is counted, not fatal', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (garbage) => {
        const contents = foldRecords(garbage);
        const lines = garbage.split('\n');
        for (const n of contents.badLines) expect(lines[n - 1]!.trim()).not.toBe('');
      }),
    );
  });

  it('records between damaged lines all come back, in order', () => {
    const damage = fc.oneof(
      fc.constant('{"type":"restart","runId":"cut sh'),
      fc.constant('not json'),
      fc.constant('{"type":"question"}'),
      fc.constant('[]'),
      fc.constant('null'),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            record.map((r) => ({ r })),
            damage.map((d) => ({ d })),
          ),
          { maxLength: 20 },
        ),
        (items) => {
          const file = items.map((item) => ('r' in item ? encodeRecord(item.r) : `${item.d}\n`)).join('');
          const contents = foldRecords(file);
          expect(contents.restarts).toEqual(
            items.flatMap((item) => ('r' in item && item.r.type === 'restart' ? [(({ type: _, ...row }) => row)(item.r)] : [])),
          );
          expect(contents.badLines).toEqual(items.flatMap((item, index) => ('d' in item ? [index + 1] : [])));
        },
      ),
    );
  });

  it('folds a question with its outcome; asked again, a question starts over; an outcome for no question is dropped', () => {
    const lines = [
      { type: 'question', id: 'a', question: 'first?', askedAt: 't1', timeoutSeconds: 5 },
      { type: 'outcome', id: 'a', outcome: 'answered', answer: 'yes', via: 'web', at: 't2' },
      { type: 'outcome', id: 'nobody', outcome: 'cancelled', at: 't3' },
      { type: 'question', id: 'b', question: 'second?', askedAt: 't4', timeoutSeconds: 5 },
      { type: 'question', id: 'a', question: 'first, again?', askedAt: 't5', timeoutSeconds: 9 },
    ] as StoreRecord[];
    expect(foldRecords(lines.map(encodeRecord).join('')).feedback).toEqual([
      { id: 'b', question: 'second?', askedAt: 't4', timeoutSeconds: 5, outcome: 'pending' },
      { id: 'a', question: 'first, again?', askedAt: 't5', timeoutSeconds: 9, outcome: 'pending' },
    ]);
  });
});
