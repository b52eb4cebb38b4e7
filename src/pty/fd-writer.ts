/**
 * Bytes to the agent's pty without a thread hop. node-pty sends every write through `fs.write`,
 * i.e. the libuv thread pool: each keystroke wakes a worker thread, and then the main loop once
 * more to complete it; on a loaded machine those context switches are most of a keystroke's cost
 * (perf: futex waits and work-queue wakeups), and script(1) makes none of them. The pty master is
 * non-blocking (node-pty sets O_NONBLOCK on it, or fails to spawn), so a direct write either goes through
 * at once or reports EAGAIN; only then does the rest wait in a queue, retried from the event loop
 * in order, as node-pty does.
 */
import fs from 'node:fs';

export interface FdWriter {
  write(data: Buffer): void;
  /** Drops what is queued; later writes are ignored. */
  close(): void;
}

/** `onError` hears a write error other than EAGAIN (EIO once the agent is gone); the writer closes. */
export function fdWriter(fd: number, onError: (error: NodeJS.ErrnoException) => void = () => {}): FdWriter {
  const queue: Buffer[] = [];
  let retry: NodeJS.Immediate | undefined;
  let closed = false;

  const fail = (error: unknown) => {
    closed = true;
    queue.length = 0;
    onError(error as NodeJS.ErrnoException);
  };
  /** Bytes written now; 0 when the pty's input buffer is full. */
  const writeNow = (chunk: Buffer): number => {
    try {
      return fs.writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
      throw error;
    }
  };
  const drain = () => {
    retry = undefined;
    if (closed) return;
    try {
      while (queue.length > 0) {
        const head = queue[0]!;
        const written = writeNow(head);
        if (written < head.length) {
          queue[0] = head.subarray(written);
          retry = setImmediate(drain);
          return;
        }
        queue.shift();
      }
    } catch (error) {
      fail(error);
    }
  };

  return {
    write(data) {
      if (closed || data.length === 0) return;
      if (queue.length > 0) {
        queue.push(Buffer.from(data)); // a copy: the caller may reuse its buffer
        return;
      }
      try {
        const written = writeNow(data);
        if (written === data.length) return;
        queue.push(Buffer.from(data.subarray(written)));
        retry = setImmediate(drain);
      } catch (error) {
        fail(error);
      }
    },
    close() {
      closed = true;
      queue.length = 0;
      if (retry) clearImmediate(retry);
    },
  };
}
