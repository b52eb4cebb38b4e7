/** ccc's frames to the relay: held until the channel connects, in order; dropped once it ended. */
import { PassThrough } from 'node:stream';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RelaySender } from '../../src/pty/relay-sender.js';
import { RelayFrameDecoder, type RelayFrame } from '../../src/pty/relay-frames.js';

function channel() {
  const stream = new PassThrough();
  const frames: string[] = [];
  const decoder = new RelayFrameDecoder();
  stream.on('data', (chunk: Buffer) => decoder.push(chunk, (f: RelayFrame) => frames.push(`${f.type}:${f.payload.toString()}`)));
  return { socket: stream as unknown as Socket, frames };
}

describe('RelaySender', () => {
  it('sends what was sent before the relay ran once it connects, in order, then each frame as it comes', () => {
    const sender = new RelaySender();
    sender.send('T', Buffer.from('a'));
    sender.send('W', Buffer.from('b'));
    const { socket, frames } = channel();
    sender.connect(socket);
    sender.send('T', Buffer.from('c'));
    expect(frames).toEqual(['T:a', 'W:b', 'T:c']);
    expect(sender.open).toBe(true);
  });

  it('drops what waits and what comes once disposed', () => {
    const sender = new RelaySender();
    sender.send('T', Buffer.from('early'));
    sender.dispose();
    const { socket, frames } = channel();
    sender.connect(socket);
    sender.send('T', Buffer.from('late'));
    expect(frames).toEqual([]);
    expect(sender.open).toBe(false);
  });
});
