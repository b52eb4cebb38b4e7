/** Event logs read back for `ccc report`: every bad line is found and named by file and line. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCccError } from '../../../src/errors.js';
import { parseEventLog } from '../../../src/reporters/ci/event-log.js';

const event = fc.record({ kind: fc.constantFrom('start', 'iteration', 'verdict', 'end', 'frame', 'future'), at: fc.string() });

describe('parseEventLog', () => {
  it('reads JSON lines (CRLF too), skipping blank ones', () => {
    expect(parseEventLog('{"kind":"start","task":"t"}\r\n\n  \n{"kind":"end","exit_code":0}\n', 'a.jsonl')).toEqual([
      { kind: 'start', task: 't' },
      { kind: 'end', exit_code: 0 },
    ]);
  });

  it('names the file and line of the first bad line', () => {
    expect(() => parseEventLog('{"kind":"start"}\n[1,2]\n', 'runs/a.jsonl')).toThrow(
      /^runs\/a\.jsonl:2: not a ccc event \(a JSON object with a "kind"\): "\[1,2\]"$/,
    );
    expect(() => parseEventLog('{"kind":"start"}\n\n{"kind": "verdict", "feedback": "cut', 'b.jsonl')).toThrow(
      /^b\.jsonl:3: not JSON \(.*\): "\{\\"kind\\": \\"verdict\\", \\"feedback\\": \\"cut"$/,
    );
    expect(() => parseEventLog('\n\n', 'c.jsonl')).toThrow(/^c\.jsonl: no ccc events in it/);
  });

  it('any text: either events with a kind, or a usage error that names the file', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc
            .array(
              fc.oneof(
                event.map((e) => JSON.stringify(e)),
                fc.string(),
              ),
            )
            .map((l) => l.join('\n')),
        ),
        (text) => {
          try {
            const lines = parseEventLog(text, 'x.jsonl');
            for (const line of lines) expect(typeof (line as { kind: unknown }).kind).toBe('string');
          } catch (error) {
            expect(isCccError(error) && error.exitCode === 2).toBe(true);
            expect((error as Error).message).toMatch(/^x\.jsonl(:\d+)?: /);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('one bad line among good ones is reported at its own line number', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.constantFrom('not json', '"a string"', 'null', '{"no":"kind"}', '{"kind":3}'),
        (events, at, bad) => {
          const rows = events.map((e) => JSON.stringify(e));
          const index = at % (rows.length + 1);
          rows.splice(index, 0, bad);
          expect(() => parseEventLog(rows.join('\n'), 'y.jsonl')).toThrow(new RegExp(`^y\\.jsonl:${index + 1}: `));
        },
      ),
    );
  });
});
