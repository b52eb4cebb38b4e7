/**
 * Observer messages are framed once and written to every socket as one buffer (below ws): the
 * frame must be exactly what ws itself would send for a text message of that payload, whether the
 * header is written in front of the message (`allocFramable`) or the payload is copied.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { allocFramable, textFrame } from '../../src/observer/ws-frame.js';

const { Sender } = createRequire(import.meta.url)('ws') as { Sender: { frame(data: Buffer, options: object): Buffer[] } };
const wsFrame = (payload: Buffer) => Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));
const SIZES = [0, 1, 125, 126, 127, 65535, 65536, 300_000];

describe('text frame', () => {
  it.each(SIZES)('matches ws for a copied %i-byte payload', (size) => {
    const payload = Buffer.alloc(size, 0x61);
    expect(textFrame(payload).equals(wsFrame(payload))).toBe(true);
  });

  it.each(SIZES)('matches ws for a %i-byte message framed in place, and copies nothing', (size) => {
    const message = allocFramable(size).fill(0x62);
    const frame = textFrame(message);
    expect(frame.equals(wsFrame(message))).toBe(true);
    expect(frame.buffer).toBe(message.buffer);
    expect(frame.byteOffset + frame.length).toBe(message.byteOffset + message.length);
    expect(message.every((byte) => byte === 0x62)).toBe(true);
  });

  it('frames a message once', () => {
    const message = allocFramable(10).fill(0x63);
    expect(textFrame(message)).toBe(textFrame(message));
    const copied = Buffer.from('{"type":"bye"}');
    expect(textFrame(copied)).toBe(textFrame(copied));
  });
});
