/**
 * Records what the user typed into `input-<session_id>.log`, off the byte path: chunks are
 * collected in memory and appended in batches (every `flushMs`, or at once past FLUSH_BYTES, so a
 * pasted megabyte goes out in pieces instead of piling up). Before the session id is known the
 * chunks are held, then written in order.
 *
 * What waits in memory (held, or handed to a write that has not finished) is bounded: the session
 * id may stay unknown until the agent's first stop, and a stalled disk may take nothing for long,
 * while the user may paste without end. Past the bound typed input is not recorded, never blocked:
 * the log then says, where the input was cut, how many bytes are missing and why.
 */
import fs from 'node:fs';
import { isSurvivableWriteError, warnWriteFailed } from '../state/write-failure.js';

/** Written at once past this many bytes, not at the next tick. */
const FLUSH_BYTES = 64 * 1024;

export interface InputRecorderOptions {
  flushMs?: number;
  /** At most this much typed input waits in memory; 16 MiB unless given. */
  maxWaitingBytes?: number;
  append?: (file: string, data: Buffer) => Promise<void>;
}

export class InputRecorder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Handed to a write that has not finished yet. */
  private writingBytes = 0;
  /** Bytes not recorded since the last cut began. */
  private cut = 0;
  private file?: string;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxWaitingBytes: number;
  private readonly append: (file: string, data: Buffer) => Promise<void>;

  constructor(options: InputRecorderOptions = {}) {
    this.flushMs = options.flushMs ?? 200;
    this.maxWaitingBytes = options.maxWaitingBytes ?? 16 * 1024 * 1024;
    this.append = options.append ?? ((file, data) => fs.promises.appendFile(file, data, { mode: 0o600 }));
  }

  record(chunk: Buffer): void {
    if (this.pendingBytes + this.writingBytes + chunk.length > this.maxWaitingBytes) {
      this.cut += chunk.length; // never block the user's typing for a log
      return;
    }
    this.markCut();
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (!this.file) return;
    if (this.pendingBytes >= FLUSH_BYTES) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  bind(file: string): void {
    this.file = file;
    void this.flush();
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.markCut();
    if (!this.file || this.pending.length === 0) return this.writing;
    const data = Buffer.concat(this.pending);
    const file = this.file;
    this.pending = [];
    this.pendingBytes = 0;
    this.writingBytes += data.length;
    this.writing = this.writing.then(() =>
      this.append(file, data)
        .catch((error: unknown) => {
          if (isSurvivableWriteError(error)) warnWriteFailed(file, error); // the recording is a convenience: the session goes on
        })
        .finally(() => {
          this.writingBytes -= data.length;
        }),
    );
    return this.writing;
  }

  /** Where input was not recorded, the log says so, in order with what was. */
  private markCut(): void {
    if (!this.cut) return;
    const marker = Buffer.from(cutMarker(this.cut, this.maxWaitingBytes));
    this.cut = 0;
    this.pending.push(marker);
    this.pendingBytes += marker.length;
  }
}

export function cutMarker(bytes: number, bound: number): string {
  return `\n[ccc: ${bytes} bytes of typed input not recorded here: ${bound} bytes were already waiting to be written (the session not known yet, or the disk behind)]\n`;
}
