/**
 * Observer messages are framed once and written to every socket as one buffer (below ws): the
 * frame must be exactly what ws itself would send for a text message of that payload.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { textFrame } from '../../src/observer/observer-sockets.js';

const { Sender } = createRequire(import.meta.url)('ws') as { Sender: { frame(data: Buffer, options: object): Buffer[] } };

describe('text frame', () => {
  it.each([0, 1, 125, 126, 127, 65535, 65536, 300_000])('matches ws for a %i-byte payload', (size) => {
    const payload = Buffer.alloc(size, 0x61);
    const ws = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));
    expect(textFrame(payload).equals(ws)).toBe(true);
  });
});
