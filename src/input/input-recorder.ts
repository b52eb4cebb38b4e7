/**
 * Records what the user typed into `input-<session_id>.log`, off the byte path: chunks are
 * collected in memory and appended in batches. Before the session id is known the chunks are
 * held (bounded), then written in order.
 */
import fs from 'node:fs';
import { isSurvivableWriteError, warnWriteFailed } from '../state/write-failure.js';

const MAX_PENDING_BYTES = 1024 * 1024;

export class InputRecorder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private file?: string;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly flushMs = 200) {}

  record(chunk: Buffer): void {
    if (this.pendingBytes + chunk.length > MAX_PENDING_BYTES) return; // typing faster than a megabyte per flush: drop, never block
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.file && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  bind(file: string): void {
    this.file = file;
    this.flush();
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file || this.pending.length === 0) return this.writing;
    const data = Buffer.concat(this.pending);
    const file = this.file;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.writing.then(() =>
      fs.promises.appendFile(file, data, { mode: 0o600 }).catch((error: unknown) => {
        if (isSurvivableWriteError(error)) warnWriteFailed(file, error); // the recording is a convenience: the session goes on
      }),
    );
    return this.writing;
  }
}
