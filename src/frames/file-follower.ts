/**
 * Follows a growing file (`tail -f`): hands over every byte appended after the last read, from
 * offset 0. The file may not exist yet (Claude Code creates the transcript on the first
 * message). `fs.watch` gives prompt notice where it works; a poll covers the rest (no watch
 * before the file exists, network file systems, a watcher lost to a rename).
 */
import fs from 'node:fs';

export interface FollowFileOptions {
  /** Poll interval in milliseconds (the fallback when fs.watch is silent). */
  pollMs: number;
  /** Receives new bytes in file order; the next read waits for the returned promise. */
  onBytes(chunk: Buffer): Promise<void> | void;
  /** The file got shorter than what was read (truncated or replaced); reading restarts at 0. */
  onRestart?(): void;
  onError?(error: Error): void;
}

export interface FileFollower {
  /** Stops watching and polling. Idempotent. */
  close(): void;
}

const READ_CHUNK_BYTES = 64 * 1024;

export function followFile(file: string, options: FollowFileOptions): FileFollower {
  let offset = 0;
  let closed = false;
  let reading = false;
  let readAgain = false;
  let watcher: fs.FSWatcher | undefined;

  const dropWatcher = () => {
    watcher?.close();
    watcher = undefined;
  };
  const ensureWatcher = () => {
    if (watcher || closed) return;
    try {
      watcher = fs.watch(file, (event) => {
        // After a rename the watcher follows the old inode: let the poll set up a new one.
        if (event === 'rename') dropWatcher();
        void pump();
      });
      watcher.on('error', dropWatcher);
      watcher.unref();
    } catch {
      // Not there yet (or not watchable): the poll keeps reading and retries the watch.
    }
  };

  async function readNewBytes(): Promise<void> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      if (size < offset) {
        offset = 0;
        options.onRestart?.();
      }
      while (offset < size && !closed) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - offset));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
        await options.onBytes(buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
  }

  async function pump(): Promise<void> {
    if (closed) return;
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        await readNewBytes();
      } while (readAgain && !closed);
    } catch (error) {
      options.onError?.(error as Error);
    } finally {
      reading = false;
    }
  }

  const timer = setInterval(() => {
    ensureWatcher();
    void pump();
  }, options.pollMs);
  // Following a file must not by itself keep the process alive; the caller ends it with close().
  timer.unref();
  ensureWatcher();
  void pump();

  return {
    close() {
      closed = true;
      clearInterval(timer);
      dropWatcher();
    },
  };
}
