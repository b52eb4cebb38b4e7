/**
 * A log line on stderr, written before the call returns. `process.stderr.write` to a pipe or a
 * socket (a parent that reads the log, a CI job) writes what the kernel takes at once and queues
 * the rest for the event loop; `process.exit` drops that queue. A reader that is behind (a busy
 * parent on a loaded machine) is enough to lose the lines a process logged just before it ended.
 * So the line goes straight to the descriptor, and waits (without spinning) while the reader
 * catches up.
 */
import fs from 'node:fs';

/** How long a reader may take nothing before the line is queued on the stream as before: a logger never hangs its process. */
const STALL_LIMIT_MS = 5000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes `line` whole on stderr, or queues it on `process.stderr` (see above); never throws. */
export function writeStderrLine(line: string, stderr: NodeJS.WriteStream & { fd?: number } = process.stderr): void {
  // Bytes already queued on the stream go first: writing past them could land inside a line of theirs.
  // A worker thread's stderr has no descriptor: its lines go through the main thread.
  if (stderr.writableLength > 0 || typeof stderr.fd !== 'number') return void stderr.write(line);
  const bytes = Buffer.from(line);
  let offset = 0;
  let stalledSince: number | undefined;
  let wait = 1;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(stderr.fd, bytes, offset);
      stalledSince = undefined;
      wait = 1;
    } catch (error) {
      // Node sets its stdio pipes non-blocking: a full pipe answers EAGAIN.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return; // stderr is gone (EPIPE) or unusable: the file has the line
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince >= STALL_LIMIT_MS) return void stderr.write(bytes.subarray(offset));
      Atomics.wait(pause, 0, 0, wait);
      wait = Math.min(wait * 2, 50);
    }
  }
}
