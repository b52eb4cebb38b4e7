/**
 * The socket between ccc and its relay: a connected pair of Unix sockets, made through a listener
 * in a private directory that is removed as soon as the pair exists. ccc's end reads into one
 * reused buffer (`onread`), so a flood copied to observers allocates nothing per read (a socket
 * from `spawn` gets a fresh buffer for every read, garbage that only a collection frees); the other
 * end becomes the relay's fd 3. Where the pair cannot be made, the relay gets a plain pipe.
 */
import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { errorText } from '../errors.js';

/** The relay's frames are read in pieces of at most this much. */
const READ_BUFFER_BYTES = 64 * 1024;

export interface RelayChannel {
  /** ccc's end, reading into `onChunk`; undefined when the relay gets a pipe instead. */
  ours: Socket | undefined;
  /** The relay's fd 3: the other end (close it once the relay has it), or a pipe made by spawn. */
  theirs: Socket | 'pipe';
}

/**
 * `onChunk` gets what arrives as a view of the reused buffer, valid only during the call.
 * Never throws: a failure is reported to `onError` and the relay gets a pipe.
 */
export async function openRelayChannel(onChunk: (chunk: Buffer) => void, onError: (message: string) => void): Promise<RelayChannel> {
  let dir: string | undefined;
  let server: net.Server | undefined;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-relay-')); // mode 0700: only this user can connect
    const address = path.join(dir, 'channel');
    const listener = net.createServer({ pauseOnConnect: true });
    server = listener;
    const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(address, resolve);
    });
    fs.chmodSync(address, 0o600); // private like every socket of ccc's, for the few milliseconds it exists
    const buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    const ours = net.connect({ path: address, onread: { buffer, callback: (bytes: number, into: Uint8Array) => keepReading(onChunk, into, bytes) } });
    await new Promise<void>((resolve, reject) => {
      ours.once('connect', resolve);
      ours.once('error', reject);
    });
    return { ours, theirs: await accepted };
  } catch (error) {
    onError(`relay: no private socket for the relay (${errorText(error)}); using a pipe`);
    return { ours: undefined, theirs: 'pipe' };
  } finally {
    server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function keepReading(onChunk: (chunk: Buffer) => void, into: Uint8Array, bytes: number): boolean {
  onChunk(Buffer.from(into.buffer, into.byteOffset, bytes));
  return true;
}
