/** Messages from observers: anything at all is either a valid input message or a close reason. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_CLIENT_MESSAGE_BYTES, parseClientMessage } from '../../src/observer/protocol.js';
import { closeReason } from '../../src/observer/observer-connection.js';

describe('observer protocol', () => {
  it('never throws, and gives a reason that fits a close frame for whatever it rejects', () => {
    const inputs = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      fc.record({ type: fc.string(), data: fc.anything() }).map((v) => Buffer.from(JSON.stringify(v) ?? '')),
    );
    fc.assert(
      fc.property(inputs, fc.boolean(), (data, isBinary) => {
        const parsed = parseClientMessage(data, isBinary);
        if (parsed.ok) {
          expect(isBinary).toBe(false);
          expect(parsed.message.type).toBe('input');
          expect(typeof parsed.message.data).toBe('string');
        } else {
          expect(Buffer.byteLength(closeReason(parsed.reason))).toBeLessThanOrEqual(123);
          expect(parsed.reason.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('accepts input messages and refuses oversize ones', () => {
    expect(parseClientMessage(Buffer.from('{"type":"input","data":"ls\\r"}'), false)).toEqual({ ok: true, message: { type: 'input', data: 'ls\r' } });
    const big = Buffer.from(JSON.stringify({ type: 'input', data: 'x'.repeat(MAX_CLIENT_MESSAGE_BYTES) }));
    expect(parseClientMessage(big, false)).toMatchObject({ ok: false, reason: expect.stringMatching(/too large/) });
  });

  it('cuts close reasons to 123 bytes without splitting a character', () => {
    const reason = closeReason('é'.repeat(100));
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).toBe('é'.repeat(61));
  });
});
