/**
 * Records what the user typed into `input-<session_id>.log`, off the byte path. The batching is a
 * Node Writable's own: while one append is on its way to the disk, what is typed meanwhile waits
 * in the stream and goes out in the next one, all of it at once (`writev`), so a pasted megabyte
 * costs a few appends and a lone keystroke goes out at once. Before the session id is known the
 * stream is corked: the chunks are held, then written in order.
 *
 * What waits in memory (held, or handed to a write that has not finished: the stream's
 * `writableLength`) is bounded: the session id may stay unknown until the agent's first stop, and
 * a stalled disk may take nothing for long, while the user may paste without end. Past the bound
 * typed input is not recorded, never blocked: the log then says, where the input was cut, how
 * many bytes are missing and why. It is given what was typed: the terminal's replies to the agent's
 * queries (device attributes, cursor reports, colours), which come in on the same input, are already
 * taken out (the byte path's `typed$`, src/input/typed-input.ts).
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { isSurvivableWriteError, warnWriteFailed } from '../state/write-failure.js';

export interface InputRecorderOptions {
  /** At most this much typed input waits in memory; 16 MiB unless given. */
  maxWaitingBytes?: number;
  append?: (file: string, data: Buffer) => Promise<void>;
}

export class InputRecorder {
  /** Bytes not recorded since the last cut began. */
  private cut = 0;
  private file?: string;
  private readonly maxWaitingBytes: number;
  private readonly log: Writable;

  constructor(options: InputRecorderOptions = {}) {
    this.maxWaitingBytes = options.maxWaitingBytes ?? 16 * 1024 * 1024;
    const append = options.append ?? ((file, data) => fs.promises.appendFile(file, data, { mode: 0o600 }));
    const write = (chunks: Buffer[], done: () => void) => {
      const data = Buffer.concat(chunks);
      const file = this.file;
      if (!file || data.length === 0) return done();
      // The recording is a convenience: a failed append is warned about and the session goes on (the next one tries again).
      append(file, data)
        .catch((error: unknown) => {
          if (isSurvivableWriteError(error)) warnWriteFailed(file, error);
        })
        .finally(done);
    };
    this.log = new Writable({
      highWaterMark: this.maxWaitingBytes,
      write: (chunk: Buffer, _encoding, done) => write([chunk], () => done()),
      writev: (chunks, done) =>
        write(
          chunks.map(({ chunk }) => chunk as Buffer),
          () => done(),
        ),
    });
    this.log.cork();
  }

  record(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.log.writableLength + chunk.length > this.maxWaitingBytes) {
      this.cut += chunk.length; // never block the user's typing for a log
      return;
    }
    this.markCut();
    this.log.write(chunk);
  }

  /** The session is known (or changed): what is held and what follows goes to `file`. */
  bind(file: string): void {
    const first = !this.file;
    this.file = file;
    if (first) this.log.uncork();
  }

  /** Resolves once everything recorded so far was written (at once while no session is known). */
  flush(): Promise<void> {
    if (!this.file) return Promise.resolve();
    this.markCut();
    // Writes finish in order: an empty one's callback comes after all before it.
    return new Promise((resolve) => this.log.write(Buffer.alloc(0), () => resolve()));
  }

  /** Where input was not recorded, the log says so, in order with what was. */
  private markCut(): void {
    if (!this.cut) return;
    const marker = Buffer.from(cutMarker(this.cut, this.maxWaitingBytes));
    this.cut = 0;
    this.log.write(marker);
  }
}

export function cutMarker(bytes: number, bound: number): string {
  return `\n[ccc: ${bytes} bytes of typed input not recorded here: ${bound} bytes were already waiting to be written (the session not known yet, or the disk behind)]\n`;
}
